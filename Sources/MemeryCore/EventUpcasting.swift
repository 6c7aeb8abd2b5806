import Foundation

/// Old payload versions, read and turned into the current shape. Nothing stored is ever
/// rewritten: an old event is upcast every time it is read. Frozen samples of each old
/// version live in Tests/MemeryCoreTests/Fixtures.
enum EventUpcasting {
    /// TextLayerAdded v1 held a text layer as a box (x, y, w, h); v2 holds a general layer:
    /// the box becomes the text's size and a transform centred on the box.
    struct TextLayerAddedV1: Decodable {
        struct LayerV1: Decodable {
            var id: String
            var role: TextContent.Role
            var text: String
            var box: Box
            var style: TextStyle
        }
        var layer: LayerV1
    }

    static func textLayerAddedV1(_ payload: Data) throws -> CreationEvent.LayerAdded {
        let old = try PayloadJSONDecoder().decode(TextLayerAddedV1.self, from: payload).layer
        let content = TextContent(role: old.role, text: old.text, width: old.box.w, height: old.box.h, style: old.style)
        return .init(layer: Layer(id: old.id, content: .text(content),
                                  transform: Transform(x: old.box.x + old.box.w / 2, y: old.box.y + old.box.h / 2)))
    }
}
