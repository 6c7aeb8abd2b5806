import Foundation
import MemeryCore

/// The JSON shapes the CLI prints for creations.
enum Describe {
    static func summary(_ history: CreationHistory) -> [String: Any] {
        let creation = history.state
        return ["name": creation.name, "id": creation.id.uuidString.lowercased(), "width": creation.width,
                "height": creation.height, "layers": creation.textLayers.count, "events": history.streamVersion,
                "head": history.head.map { history.nodes[$0].version as Any } ?? NSNull()]
    }

    static func detail(_ history: CreationHistory) -> [String: Any] {
        let creation = history.state
        var result = summary(history)
        if let base = creation.baseImage {
            result["baseImage"] = ["blob": base.blob, "width": base.width, "height": base.height,
                                   "format": base.format, "sourceName": base.sourceName.map { $0 as Any } ?? NSNull()]
        }
        result["layers"] = creation.textLayers.map(layer)
        return result
    }

    static func layer(_ layer: TextLayer) -> [String: Any] {
        let s = layer.style
        return [
            "id": layer.id, "kind": "text", "role": layer.role.rawValue, "text": layer.text,
            "box": ["x": layer.box.x, "y": layer.box.y, "w": layer.box.w, "h": layer.box.h],
            "style": ["font": s.font, "maxSize": s.maxSize, "fill": s.fill.hex, "outline": s.outline.hex,
                      "outlineWidth": s.outlineWidth.map { $0 as Any } ?? NSNull(), "align": s.align.rawValue, "uppercase": s.uppercase] as [String: Any],
        ]
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// Prints a JSON value, pretty and with sorted keys.
func printJSON(_ value: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}
