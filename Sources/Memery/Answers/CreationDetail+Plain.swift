import Foundation
import MemeryCore

/// An answer with a writer of its own, byte for byte as `SortedJSONEncoder` writes it;
/// `AnswerJSON` asks it first. nil: a value JSON cannot spell (the encoder names it).
protocol PlainlyWrittenAnswer {
    func plainJSON() -> Data?
}

/// A creation's detail is what the editor reads after every edit: at 2,000 layers 735 KiB,
/// which took `SortedJSONEncoder` 15-20 ms through Codable's containers. Its layers are
/// written by hand, each type's keys in their sorted order; the rare members (the base
/// picture, filters) are spliced from the encoder, whose compact bytes are the same nested.
extension CreationDetail: PlainlyWrittenAnswer {
    func plainJSON() -> Data? {
        PlainPayloadWriter.write(reserving: 512 + 360 * layers.count) { w throws(PlainPayloadWriter.NotSpelled) in
            try w.object { w throws(PlainPayloadWriter.NotSpelled) in
                if let background { w.key("background"); w.string(background) }
                if let baseImage { w.key("baseImage"); try w.encoded(baseImage) }
                if let canRedo { w.key("canRedo"); w.bool(canRedo) }
                if let canUndo { w.key("canUndo"); w.bool(canUndo) }
                w.key("events"); w.integer(events)
                if let favorite { w.key("favorite"); w.bool(favorite) }
                w.key("filters"); try w.encoded(filters)
                w.key("head"); if let head { w.integer(head) } else { w.null() }
                w.key("height"); w.int(height)
                w.key("id"); w.string(id)
                w.key("layers"); try w.array(layers) { w, layer throws(PlainPayloadWriter.NotSpelled) in try layer.plainWrite(&w) }
                w.key("name"); w.string(name)
                if let trashed { w.key("trashed"); w.bool(trashed) }
                w.key("width"); w.int(width)
            }
        }
    }
}

extension LayerAnswer {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(PlainPayloadWriter.NotSpelled) in
            w.key("box")
            try w.object { w throws(PlainPayloadWriter.NotSpelled) in
                w.key("h"); try w.double(box.h)
                w.key("w"); try w.double(box.w)
                w.key("x"); try w.double(box.x)
                w.key("y"); try w.double(box.y)
            }
            if let erasures { w.key("erasures"); w.int(erasures) }
            w.key("id"); w.string(id)
            if let image { w.key("image"); try w.encoded(image) }
            w.key("kind"); w.string(kind)
            w.key("label"); w.string(label)
            w.key("opacity"); try w.double(opacity)
            w.key("position"); w.int(position)
            if let role { w.key("role"); w.string(role) }
            if let shape {
                w.key("shape")
                try w.object { w throws(PlainPayloadWriter.NotSpelled) in
                    w.key("alpha"); try w.double(shape.alpha)
                    w.key("fill"); if let fill = shape.fill { w.string(fill) } else { w.null() }
                    w.key("height"); try w.double(shape.height)
                    w.key("kind"); w.string(shape.kind)
                    w.key("stroke"); if let stroke = shape.stroke { w.string(stroke) } else { w.null() }
                    w.key("strokeWidth"); try w.double(shape.strokeWidth)
                    w.key("width"); try w.double(shape.width)
                }
            }
            if let strokes { w.key("strokes"); w.int(strokes) }
            if let style {
                w.key("style")
                try w.object { w throws(PlainPayloadWriter.NotSpelled) in
                    w.key("align"); w.string(style.align)
                    w.key("fill"); w.string(style.fill)
                    w.key("font"); w.string(style.font)
                    w.key("maxSize"); try w.double(style.maxSize)
                    w.key("outline"); w.string(style.outline)
                    w.key("outlineWidth"); if let width = style.outlineWidth { try w.double(width) } else { w.null() }
                    w.key("uppercase"); w.bool(style.uppercase)
                }
            }
            if let text { w.key("text"); w.string(text) }
            w.key("transform")
            try w.object { w throws(PlainPayloadWriter.NotSpelled) in
                w.key("flipH"); w.bool(transform.flipH)
                w.key("flipV"); w.bool(transform.flipV)
                w.key("rotation"); try w.double(transform.rotation)
                w.key("scale"); try w.double(transform.scale)
                w.key("x"); try w.double(transform.x)
                w.key("y"); try w.double(transform.y)
            }
        }
    }
}
