import Foundation
import Testing
import MemeryCore

@Suite struct EventCodingTests {
    static let samples: [CreationEvent] = [
        .created(.init(id: UUID(uuidString: "6F1C2A00-0000-4000-8000-000000000001")!, name: "cat")),
        .baseImageImported(.init(image: BaseImage(blob: String(repeating: "0f", count: 32), width: 451, height: 300,
                                                  format: "png", sourceName: "chelsea.png"))),
        .textLayerAdded(.init(layer: Layer(id: "L1", content: .text(TextContent(role: .top, text: "hello", width: 3, height: 4,
                                                                                 style: .meme(canvasHeight: 300))),
                                           transform: Transform(x: 2.5, y: 4)))),
        .canvasRotated(.init(degrees: 30, width: 10, height: 12)),
        .canvasExtended(.init(left: 0, top: 300, right: 0, bottom: 12, background: .white)),
        .textLayerEdited(.init(id: "L1", text: "bye", box: nil, style: nil)),
        .layerRemoved(.init(id: "L1")),
    ]

    @Test(arguments: samples)
    func payloadRoundTripsThroughJSON(_ event: CreationEvent) throws {
        let payload = try event.encodedPayload()
        let decoded = try CreationEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: payload)
        #expect(decoded == event)
        #expect(try decoded.encodedPayload() == payload)
    }

    @Test func unknownTypesAndNewerVersionsAreRefused() {
        #expect(throws: EventDecodingError.unknownType("LayerTeleported")) {
            try CreationEvent.decode(type: "LayerTeleported", schemaVersion: 1, payload: Data("{}".utf8))
        }
        #expect(throws: EventDecodingError.unsupportedVersion(type: "TextLayerRemoved", version: 9, newest: 1)) {
            try CreationEvent.decode(type: "TextLayerRemoved", schemaVersion: 9, payload: Data("{}".utf8))
        }
        #expect(throws: EventDecodingError.self) {
            try CreationEvent.decode(type: "TextLayerRemoved", schemaVersion: 1, payload: Data(#"{"nope":1}"#.utf8))
        }
    }
}
