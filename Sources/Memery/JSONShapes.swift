public import Foundation
import MemeryCore
import MemeryRender

/// The JSON every front end gives for creations, layers, filters and the catalogs: what
/// `memery show --json` prints is what `GET /api/creations/{name}` answers. Values are
/// JSONSerialization's (dictionaries, arrays, strings, numbers, NSNull).
public enum JSONShapes {
    /// A creation in a list: its name, id, size, and how far its history goes.
    public static func summary(_ head: CreationHead) -> [String: Any] {
        let creation = head.state
        return ["name": creation.name, "id": creation.id.uuidString.lowercased(), "width": creation.width,
                "height": creation.height, "layers": creation.layers.count, "events": head.streamVersion,
                "head": optional(head.headVersion)]
    }

    /// A creation whole: the summary, its base image (with its frame count), layers and filters.
    public static func detail(_ head: CreationHead, frames: Int) -> [String: Any] {
        let creation = head.state
        var result = summary(head)
        if let base = creation.baseImage {
            var described = image(base)
            described["frames"] = frames
            result["baseImage"] = described
        }
        if let canvas = creation.canvas { result["background"] = canvas.background.hex }
        result["layers"] = creation.layers.enumerated().map { layer($1, position: $0 + 1) }
        result["filters"] = creation.filters.enumerated().map { index, applied -> [String: Any] in
            // As the installed plugin reads them (what `filter set` takes): stored by an older
            // version, they are shown migrated, with the version they were stored for.
            let (params, note) = FilterCatalog.currentParams(of: applied)
            var filter: [String: Any] = ["position": index + 1, "id": applied.id, "label": applied.label, "filter": applied.filter,
                                         "target": applied.target.description, "paramVersion": applied.paramVersion,
                                         "params": params.mapValues { $0.description }]
            if params != applied.params, let installed = FilterHost.shared.filter(applied.filter) {
                filter["paramVersion"] = installed.paramVersion
                filter["storedParamVersion"] = applied.paramVersion
            }
            if let note { filter["note"] = note }
            return filter
        }
        return result
    }

    public static func image(_ base: BaseImage) -> [String: Any] {
        ["blob": base.blob, "width": base.width, "height": base.height, "format": base.format,
         "sourceName": optional(base.sourceName), "origin": optional(base.origin.map(origin))]
    }

    public static func origin(_ origin: PictureOrigin) -> [String: Any] {
        ["url": origin.url, "title": optional(origin.title), "author": optional(origin.author),
         "licence": optional(origin.licence), "licenceURL": optional(origin.licenceURL), "page": optional(origin.page)]
    }

    public static func layer(_ layer: Layer, position: Int) -> [String: Any] {
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

    public static func filter(_ f: FilterDescriptor) -> [String: Any] {
        ["id": f.id, "name": f.name, "description": optional(f.description), "origin": f.origin.rawValue,
         "paramVersion": f.paramVersion, "deterministic": f.deterministic,
         "params": f.params.map { p in
             ["id": p.id, "name": p.name, "type": p.kind.rawValue, "unit": p.unit.rawValue, "min": p.min, "max": p.max,
              "default": p.defaultValue.description, "choices": p.choices] as [String: Any]
         }]
    }

    public static func garageItem(_ item: Garage.Item) -> [String: Any] {
        ["name": item.name, "tags": item.tags, "image": image(item.image)]
    }

    public static func template(_ t: Templates.Template) -> [String: Any] {
        ["name": t.name, "width": t.canvas.width, "height": t.canvas.height,
         "baseImage": t.baseImage.map { image($0) as Any } ?? NSNull(),
         "layers": t.layers.enumerated().map { layer($1, position: $0 + 1) }]
    }

    public static func font(_ font: FontFamily) -> [String: Any] {
        var entry: [String: Any] = ["name": font.name]
        if let role = font.role { entry["role"] = role }
        return entry
    }

    /// What one edit did, as `--json` and the HTTP API report it: the sequence stored (null
    /// when nothing changed), the creation and its version, and what the edit made or moved to.
    public static func editResult(_ result: EditResult) -> [String: Any] {
        var fields: [String: Any] = ["seq": optional(result.sequence)]
        if let creation = result.creation { fields["creation"] = creation }
        if let version = result.version { fields["version"] = version }
        if let layer = result.layer { fields["layer"] = layer }
        if let layerID = result.layerID { fields["layerId"] = layerID }
        if let filter = result.filter { fields["filter"] = filter }
        if let head = result.head { fields["head"] = ["version": head.version, "summary": head.summary] as [String: Any] }
        if let item = result.garageItem { fields["image"] = item.name }
        return fields
    }

    static func optional<T>(_ value: T?) -> Any { value.map { $0 as Any } ?? NSNull() }

    /// A JSON value's bytes, keys sorted, slashes left alone.
    public static func data(_ value: Any, pretty: Bool = false) throws -> Data {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        return try JSONSerialization.data(withJSONObject: value, options: options)
    }
}
