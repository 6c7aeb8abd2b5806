import Foundation
@testable import Memery
import MemeryCore
import MemeryStore
import MemeryTestSupport
import Testing

/// `memery log --json` and `history --events --json` write their envelopes as they read
/// them: the same JSON that JSONSerialization made of the whole array before, in pieces.
@Suite struct EnvelopeArrayWriterTests {
    static func written(in pieceSize: inout [Int], _ body: (inout EnvelopeArrayWriter) throws -> Void) throws -> String {
        var out = [UInt8]()
        var sizes = [Int]()
        var writer = EnvelopeArrayWriter(into: { out.append(contentsOf: $0); sizes.append($0.count) })
        try body(&writer)
        try writer.finish()
        pieceSize = sizes
        return String(decoding: out, as: UTF8.self)
    }

    static func foundationPretty(_ envelopes: [[String: any Sendable]]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: envelopes, options: [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A creation with captions that need escapes, a shape, a drawing, an undo and a branch:
    /// the log, with each event's creation named, is byte for byte what JSONSerialization
    /// wrote of it (its payloads' keys sort the same either way), and so is one creation's
    /// history.
    @Test func theLogIsWhatJSONSerializationWroteOfIt() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "c \"quoted\" é", canvasWidth: 64, height: 48, background: .white)
        try workspace.setCaptions("c \"quoted\" é", top: "TOP / \"x\"\n", bottom: "日本 😀")
        try workspace.perform(.addShape(.ellipse, box: Box(x: 1.5, y: 2, w: 10, h: 5), fill: nil, alpha: 0.25, stroke: .black, strokeWidth: 2), on: "c \"quoted\" é")
        try workspace.perform(.draw(points: [Point(x: 1, y: 2), Point(x: 3.25, y: 4)], width: 3, color: .white, erase: false, layer: nil), on: "c \"quoted\" é")
        try workspace.perform(.undo(steps: 1), on: "c \"quoted\" é")
        try workspace.perform(.rotate(degrees: 90, .canvas), on: "c \"quoted\" é")

        let log = try workspace.log()
        var pieces = [Int]()
        let ours = try Self.written(in: &pieces) { writer in for entry in log { try writer.append(entry) } }
        let theirs = try Self.foundationPretty(try log.map { entry in
            var envelope = try entry.envelope()
            envelope["creation"] = entry.streamName
            return envelope
        })
        #expect(log.count > 8 && ours == theirs)
        #expect(pieces.count == 1, "a small log is handed over once, at the end")

        let history = try workspace.events(of: "c \"quoted\" é")
        let historyJSON = try Self.written(in: &pieces) { writer in for entry in history { try writer.append(entry) } }
        #expect(historyJSON == (try Self.foundationPretty(try history.map { try $0.envelope() })), "no creation key in a history")
    }

    /// Read a few at a time, one read transaction each, the log is the same entries in the
    /// same order, whether its length is a multiple of the batch or not, from any start.
    @Test(arguments: [1, 2, 3, 7, 1024])
    func theLogReadInBatchesIsTheWholeLog(perRead: Int) throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "c", canvasWidth: 8, height: 8, background: .white)
        for index in 0..<5 { try workspace.setCaptions("c", top: "\(index)", bottom: nil) }
        let whole = try workspace.log().map(\.sequence)
        for start in [1, 2, whole.count / 2, whole.count, whole.count + 1] {
            var read = [UInt64]()
            try workspace.forEachLogEntry(from: UInt64(start), perRead: perRead) { read.append($0.sequence) }
            #expect(read == whole.filter { $0 >= UInt64(start) }, "from \(start), \(perRead) a read")
        }
    }

    @Test func anEmptyLogIsAnEmptyArrayAsFoundationLaysItOut() throws {
        var pieces = [Int]()
        #expect(try Self.written(in: &pieces) { _ in } == (try Self.foundationPretty([])))
    }

    /// A big log leaves in pieces of about 64 KiB as it is read, not gathered first, and
    /// each piece ends between two envelopes.
    @Test func aBigLogIsHandedOverInPieces() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "big", canvasWidth: 64, height: 48, background: .white)
        for index in 0..<300 { try workspace.setCaptions("big", top: String(repeating: "caption \(index) ", count: 4), bottom: nil) }
        var pieces = [Int]()
        let out = try Self.written(in: &pieces) { writer in try workspace.forEachLogEntry { try writer.append($0) } }
        let array = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        #expect(array.count == (try workspace.log().count) && array.last?["creation"] as? String == "big")
        #expect(pieces.count >= 2 && pieces.dropLast().allSatisfy { $0 >= 1 << 16 && $0 < (1 << 16) + 8192 }, "\(pieces)")
    }

    /// A record whose bytes check out but whose payload is not a JSON object (nothing this
    /// project writes or admits; a store damaged by hand) is named by its sequence, and
    /// nothing of it is written.
    @Test func aPayloadThatIsNotJSONIsNamedNotWrittenInPart() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let stored = try workspace.store.append(to: UUID(), expectedVersion: 0, events: [
            NewEvent(type: "Odd", schemaVersion: 1, payload: Data(#"{"a":1}"#.utf8)),
            NewEvent(type: "Odd", schemaVersion: 1, payload: Data(#"{"a":"#.utf8)),
            NewEvent(type: "Odd", schemaVersion: 1, payload: Data(#"[1]"#.utf8)),
        ])
        var out = [UInt8]()
        var writer = EnvelopeArrayWriter(into: { out.append(contentsOf: $0) })
        let entries = try workspace.log()
        try writer.append(entries[0])
        #expect {
            try writer.append(entries[1])
        } throws: { error in
            guard case StoreError.damaged(let sequence, let reason) = error else { return false }
            return sequence == stored[1].sequence && reason.contains("its payload is not JSON")
        }
        #expect {
            try writer.append(entries[2])
        } throws: { error in
            guard case StoreError.damaged(let sequence, let reason) = error else { return false }
            return sequence == stored[2].sequence && reason.contains("not an object")
        }
        try writer.finish()
        let array = try JSONSerialization.jsonObject(with: Data(out)) as? [[String: Any]]
        #expect(array?.count == 1, "the first envelope whole, nothing of the others")
    }
}
