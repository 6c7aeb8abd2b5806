import Foundation
@_spi(Tools) @testable import Memery
import MemeryRender
import MemeryStore
import MemeryTestSupport
import Testing

/// A store written by the last build of store format 2 (commit 054d137), frozen in
/// Fixtures/format2 with what that build said about it (scripts/make-format2-fixture), opens
/// in this build as format 3: every record checked by CRC32C instead of SHA-256, and every
/// creation, history, picture, the gallery, the trash and the garage as they were.
@Suite struct FormatTwoMigrationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/format2")
    static let names = ["Base Picture", "sticker-src", "drake", "Straße", "from-garage", "from-template"]

    static func json(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.appendingPathComponent(name)))
    }

    static func same(_ a: Any, _ b: Any) -> Bool {
        NSArray(array: [a]).isEqual(to: [b])
    }

    @Test func aFormatTwoStoreIsMigratedWithEverythingAsItWas() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = dir.url.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("data.mdb"), to: store.appendingPathComponent("data.mdb"))
        let workspace = try Workspace(directory: store)
        let notice = try #require(workspace.migrationNotice)
        #expect(notice == "the store \(store.path) was migrated from format 2 to format 3 (55 events, checked)", "\(notice)")
        #expect(try workspace.eventStore.storedFormat == 3)

        // The same counts as format 2's own check said, now under CRC32C.
        let said = try #require(try Self.json("verify.json") as? [String: Any])
        let report = try workspace.eventStore.verify()
        #expect(report.isClean && report.formatVersion == 3)
        #expect(report.events == said["events"] as? Int && report.purged == said["purged"] as? Int && report.streams == said["streams"] as? Int
                && report.blobs == said["blobs"] as? Int && report.blobBytes == said["blobBytes"] as? Int, "\(report) against \(said)")
        var checksums = Set<Int>()
        try workspace.eventStore.forEachEvent { event in
            checksums.insert(event.checksumHex.count)
            return true
        }
        #expect(checksums == [8], "every record carries a 4-byte CRC32C: \(checksums)")

        // The gallery, the trash and the garage, as format 2 listed them.
        let gallery = try #require(try Self.json("gallery.json") as? [[String: Any]])
        #expect(try workspace.gallery().entries.map(\.name) == gallery.map { $0["name"] as! String })
        #expect(try workspace.gallery().entries.map { $0.id.uuidString.lowercased() } == gallery.map { $0["id"] as! String })
        #expect(try workspace.gallery().entries.map(\.favorite) == gallery.map { $0["favorite"] as! Bool })
        let trash = try #require(try Self.json("trash.json") as? [[String: Any]])
        #expect(try workspace.gallery().trash.map(\.name) == trash.map { $0["name"] as! String })
        let garage = try #require(try Self.json("garage.json") as? [[String: Any]])
        #expect(try workspace.garage().items.map(\.name) == garage.map { $0["name"] as! String })

        for name in Self.names {
            // The whole history: nodes, summaries, times, moves, the head.
            let before = try Self.json("histories/\(name).json")
            let after = try JSONSerialization.jsonObject(with: AnswerJSON.data(HistoryTreeAnswer(try workspace.history(of: name))))
            #expect(Self.same(before, after), "\(name)'s history changed")
            // The picture, pixel for pixel within rounding.
            let (old, _) = try ImageDecoder().decode(try Data(contentsOf: Self.fixture.appendingPathComponent("exports/\(name).png")), source: name)
            let new = try workspace.pictures.render(try workspace.creation(named: name))
            #expect(old.width == new.width && old.height == new.height, "\(name)")
            let worst = old.worstDifference(from: new)
            #expect(worst <= 2, "\(name): a pixel differs by \(worst) from format 2's export")
        }

        // And it goes on: an edit after an undo (a branch) is stored and read back.
        let session = try workspace.session("drake")
        try session.undo()
        try session.edit(.setCaptions(top: "in format 3", bottom: nil))
        #expect(try Workspace(directory: store).creation(named: "drake").caption(.top)?.text?.text == "in format 3")
        #expect(try workspace.eventStore.verify().isClean)
    }
}
