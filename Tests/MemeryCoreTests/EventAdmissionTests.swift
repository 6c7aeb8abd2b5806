import Foundation
import MemeryCore
import Testing

/// What the hub admits and a machine takes from a pull: the engine's own decoders decide.
@Suite struct EventAdmissionTests {
    static let now: Int64 = 1_795_000_000_000

    @Test(arguments: EventCodingTests.samples)
    func everyEventThisMemeryWritesIsReadable(_ event: CreationEvent) throws {
        #expect(EventAdmission.judge(type: event.type, schemaVersion: event.schemaVersion, payload: try event.encodedPayload(), time: Self.now)
                == .readable)
    }

    @Test func galleryGarageAndTemplateEventsAreJudgedByTheirOwnDecoders() throws {
        let added = GalleryEvent.added(.init(id: UUID(), name: "cat", rank: "0001"))
        #expect(EventAdmission.judge(type: added.type, schemaVersion: added.schemaVersion, payload: try added.encodedPayload(), time: Self.now)
                == .readable)
        guard case .unreadable = EventAdmission.judge(type: "GalleryEntryAdded", schemaVersion: 2, payload: Data(#"{"id":"x"}"#.utf8), time: Self.now)
        else { Issue.record("a gallery entry without a name or rank was taken"); return }
    }

    @Test func garbageIsUnreadableAndAnUnknownTypeWithAJSONPayloadIsNewer() {
        let garbage = EventAdmission.judge(type: "TextLayerEdited", schemaVersion: 1, payload: Data("not json".utf8), time: Self.now)
        guard case .unreadable(let why) = garbage else { Issue.record("garbage was taken: \(garbage)"); return }
        #expect(why.contains("TextLayerEdited"))
        #expect(EventAdmission.judge(type: "StickerWobbled", schemaVersion: 1, payload: Data(#"{"a":1}"#.utf8), time: Self.now)
                == .newer("StickerWobbled version 1 is newer than this memery reads"))
        #expect(EventAdmission.judge(type: "CanvasFlipped", schemaVersion: 9, payload: Data(#"{"axis":"h"}"#.utf8), time: Self.now)
                == .newer("CanvasFlipped version 9 is newer than this memery reads"))
        guard case .unreadable = EventAdmission.judge(type: "Sticker Wobbled!", schemaVersion: 1, payload: Data(#"{"a":1}"#.utf8), time: Self.now),
              case .unreadable = EventAdmission.judge(type: "StickerWobbled", schemaVersion: 1, payload: Data("[1]".utf8), time: Self.now)
        else { Issue.record("an impossible type name or a non-object payload passed as newer"); return }
    }

    @Test(arguments: [Int64.min, -1, 0, 946_684_799_999, 4_102_444_800_000, Int64.max])
    func aTimeOutsideTheCenturyIsUnreadable(_ time: Int64) {
        let verdict = EventAdmission.judge(type: "CanvasFlipped", schemaVersion: 1, payload: Data(#"{"axis":"h"}"#.utf8), time: time)
        #expect(verdict == .unreadable("its time (\(time) ms since 1970) is not between 2000 and 2100"))
    }

    @Test func thePicturesAPayloadUsesAreFoundWhereverTheyAre() {
        let a = String(repeating: "ab", count: 32), b = String(repeating: "0c", count: 32)
        let payload = Data(#"{"image":{"blob":"\#(a)"},"layers":[{"kind":{"blob":"\#(b)"}},{"blob":"not a hash"}]}"#.utf8)
        #expect(EventAdmission.pictures(in: payload) == [b, a])
    }
}
