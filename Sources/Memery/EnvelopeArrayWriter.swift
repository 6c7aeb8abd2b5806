import Foundation
import MemeryCore
import MemeryStore

/// `memery log --json` and `memery history --events --json`: a JSON array of envelopes
/// (schemas/envelope.schema.json), pretty, handed over a piece at a time, so that the log
/// of a store of any size prints in memory of its own. The envelope's keys are written in
/// their sorted order; the payload as it is stored (`PrettyJSON`), not parsed and written
/// again. A payload that is not a JSON object stops it with the event named; what was
/// handed over before is a truncated array, never a complete-looking one.
public struct EnvelopeArrayWriter {
    private var bytes = [UInt8]()
    private var count = 0
    private let sink: (UnsafeRawBufferPointer) throws -> Void

    /// The bytes written so far go to `sink` every 64 KiB and at `finish()`.
    public init(into sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        bytes.reserveCapacity(Self.flushSize + 4096)
        bytes.append(UInt8(ascii: "["))
    }

    /// An event of the global log, with its creation's name (absent when it has none).
    public mutating func append(_ entry: LogEntry) throws {
        try append(entry.stored, creation: entry.streamName)
    }

    /// An event of one creation's history.
    public mutating func append(_ entry: HistoryEntry) throws {
        try append(entry.stored, creation: nil)
    }

    /// Closes the array, ends the line and hands over the rest. An empty array is laid out
    /// as Foundation's `.prettyPrinted` lays it out.
    public mutating func finish() throws {
        bytes.append(contentsOf: count == 0 ? [0x0A, 0x0A, UInt8(ascii: "]"), 0x0A] : [0x0A, UInt8(ascii: "]"), 0x0A])
        try flush()
    }

    private static let flushSize = 1 << 16

    private mutating func append(_ event: StoredEvent, creation: String?) throws {
        let start = bytes.count
        bytes.append(contentsOf: count == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
        bytes.append(contentsOf: "  {\n".utf8)
        member("batch") { JSONLeafBytes.integer(event.batch, into: &$0) }
        member("checksum") { JSONLeafBytes.string(event.checksumHex, into: &$0) }
        if let creation { member("creation") { JSONLeafBytes.string(creation, into: &$0) } }
        member("id") { JSONLeafBytes.string(event.id.lowercasedString, into: &$0) }
        member("parent") { bytes in
            if let parent = event.parent { JSONLeafBytes.string(parent.lowercasedString, into: &bytes) } else { JSONLeafBytes.null(into: &bytes) }
        }
        bytes.append(contentsOf: "    \"payload\" : ".utf8)
        do {
            try event.payload.withUnsafeBytes { payload in
                // Admission takes no other payload; the schema promises an object.
                guard PrettyJSON.isObject(payload) else { throw PrettyJSON.Invalid(offset: 0, reason: "not an object") }
                try PrettyJSON.append(payload, level: 2, to: &bytes)
            }
        } catch {
            bytes.removeSubrange(start...)
            throw StoreError.damaged(sequence: event.sequence, reason: "its payload is not JSON (\(error))")
        }
        bytes.append(contentsOf: ",\n".utf8)
        member("schema") { JSONLeafBytes.integer(event.schemaVersion, into: &$0) }
        member("seq") { JSONLeafBytes.integer(event.sequence, into: &$0) }
        member("stream") { JSONLeafBytes.string(event.stream.lowercasedString, into: &$0) }
        member("time") { JSONLeafBytes.integer(event.timeMilliseconds, into: &$0) }
        member("type") { JSONLeafBytes.string(event.type, into: &$0) }
        member("version", last: true) { JSONLeafBytes.integer(event.version, into: &$0) }
        bytes.append(contentsOf: "  }".utf8)
        count += 1
        if bytes.count >= Self.flushSize { try flush() }
    }

    private mutating func member(_ key: StaticString, last: Bool = false, _ value: (inout [UInt8]) -> Void) {
        bytes.append(contentsOf: "    \"".utf8)
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(contentsOf: "\" : ".utf8)
        value(&bytes)
        bytes.append(contentsOf: last ? [0x0A] : [UInt8(ascii: ","), 0x0A])
    }

    private mutating func flush() throws {
        try bytes.withUnsafeBytes(sink)
        bytes.removeAll(keepingCapacity: true)
    }
}
