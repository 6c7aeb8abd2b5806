import Memery
import Foundation

/// The shapes the CLI prints for creations and layers, as text and as JSON.
enum Describe {
    static func summary(_ head: CreationHead) -> [String: Any] {
        let creation = head.state
        return ["name": creation.name, "id": creation.id.uuidString.lowercased(), "width": creation.width,
                "height": creation.height, "layers": creation.layers.count, "events": head.streamVersion,
                "head": head.headVersion.map { $0 as Any } ?? NSNull()]
    }

    static func detail(_ head: CreationHead) -> [String: Any] {
        let creation = head.state
        var result = summary(head)
        if let base = creation.baseImage { result["baseImage"] = image(base) }
        if let canvas = creation.canvas { result["background"] = canvas.background.hex }
        result["layers"] = creation.layers.enumerated().map { layer($1, position: $0 + 1) }
        result["filters"] = creation.filters.enumerated().map { index, applied -> [String: Any] in
            ["position": index + 1, "id": applied.id, "label": applied.label, "filter": applied.filter, "target": applied.target.description,
             "paramVersion": applied.paramVersion, "params": applied.params.mapValues { $0.description }]
        }
        return result
    }

    static func image(_ base: BaseImage) -> [String: Any] {
        ["blob": base.blob, "width": base.width, "height": base.height, "format": base.format,
         "sourceName": base.sourceName.map { $0 as Any } ?? NSNull()]
    }

    static func optional(_ value: Any?) -> Any { value ?? NSNull() }

    static func layer(_ layer: Layer, position: Int) -> [String: Any] {
        let t = layer.transform, box = layer.box
        var result: [String: Any] = [
            "id": layer.id, "label": layer.label, "kind": layer.kind, "position": position, "opacity": layer.opacity,
            "box": ["x": box.x, "y": box.y, "w": box.w, "h": box.h],
            "transform": ["x": t.x, "y": t.y, "scale": t.scale, "rotation": t.rotation, "flipH": t.flipH, "flipV": t.flipV] as [String: Any],
        ]
        switch layer.content {
        case .text(let text):
            let s = text.style
            result["role"] = text.role.rawValue
            result["text"] = text.text
            result["style"] = ["font": s.font, "maxSize": s.maxSize, "fill": s.fill.hex, "outline": s.outline.hex,
                               "outlineWidth": optional(s.outlineWidth), "align": s.align.rawValue, "uppercase": s.uppercase] as [String: Any]
        case .image(let content):
            result["image"] = image(content.image)
        case .shape(let shape):
            result["shape"] = ["kind": shape.kind.rawValue, "width": shape.width, "height": shape.height,
                               "fill": optional(shape.fill?.hex), "alpha": shape.alpha, "stroke": optional(shape.stroke?.hex),
                               "strokeWidth": shape.strokeWidth] as [String: Any]
        case .drawing(let drawing):
            result["strokes"] = drawing.strokes.count
            result["erasures"] = drawing.strokes.filter(\.erase).count
        }
        return result
    }

    /// One line for a layer: position, id, kind and what it shows.
    static func line(_ layer: Layer, position: Int) -> String {
        let t = layer.transform
        var placement = "at \(number(t.x)),\(number(t.y))"
        if t.scale != 1 { placement += " scale \(number(t.scale))" }
        if t.rotation != 0 { placement += " rotated \(number(t.rotation))°" }
        if t.flipH { placement += " flipped h" }
        if t.flipV { placement += " flipped v" }
        if layer.opacity != 1 { placement += " opacity \(number(layer.opacity))" }
        let what: String
        switch layer.content {
        case .text(let text):
            let s = text.style
            what = "text \(text.role) \"\(text.text)\" box \(layer.box) \(s.font) up to \(number(s.maxSize))px \(s.fill)/\(s.outline) \(s.align)\(s.uppercase ? "" : " no-caps")"
        case .image(let content):
            what = "image \(content.image.sourceName ?? String(content.image.blob.prefix(12))) \(content.width)x\(content.height)"
        case .shape(let shape):
            what = "\(shape.kind) \(number(shape.width))x\(number(shape.height)) fill \(shape.fill?.hex ?? "none") alpha \(number(shape.alpha)) stroke \(shape.stroke?.hex ?? "none")"
        case .drawing(let drawing):
            what = "drawing, \(drawing.strokes.count) stroke(s)"
        }
        return "  \(position)  \(layer.label)  \(what)  \(placement)"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.2f", value)
    }
}

/// Prints a JSON value, pretty and with sorted keys.
func printJSON(_ value: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}
