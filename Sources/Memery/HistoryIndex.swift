import Foundation
import MemeryCore
import MemeryStore

/// A creation's history tree kept in the store beside its stream (a `StreamCache`), so that
/// the first undo, redo or checkout in a new process reads a few records instead of replaying
/// every event. Each edit's own transaction extends it (`deriving`); a full replay builds it
/// again whenever it is missing, damaged, or behind the stream (an append that came by sync,
/// or one an older Memery wrote). A cache: nothing is lost with it.
///
/// Records, under the stream's id (numbers big-endian; nodes and batches numbered from 0 in
/// history order, as `CreationHistory` numbers them):
/// - `h` node: one edit (`Node`), its batch too: its events by global sequence and history
///   numbers, its time, its parent, its first and last child and its next sibling (children
///   are a list, oldest first)
/// - `d` node: what the edit did as `memery history` says it (`Description`), after the
///   node's parent, last event number and time (which never change once written), so that
///   the whole tree is drawn from these records alone
/// - `g` move: one undo, redo or checkout (a `CreationHistory.Batch` of the move kind)
/// - `h` ffffffff: the index itself (`Meta`): the stream version it covers, counts, head,
///   genesis, latest order
/// - `s` node: the state at a node (a checkpoint), JSON
enum HistoryIndex {
    /// 2: each node's description (`d`). 3: a description begins with its node's parent,
    /// last event number and time, so that drawing the tree reads one record an edit.
    /// 4: the words people wrote are kept escaped (`PrintableText`). An index of another
    /// format is built again.
    static let format: UInt8 = 4
    static let none = UInt32.max
    /// A checkpoint is written where the payloads to fold since the last one reach the last
    /// one's size, and at least this: rebuilding any state then reads at most about twice
    /// its own size, and checkpoints take no more room than the events they save folding.
    static let minimumFoldBytes = 64 * 1024

    /// The index is unusable (damaged or inconsistent): the caller replays instead.
    struct Unusable: Error { var reason: String }

    /// Whether an error met while answering from the index says the index cannot be trusted:
    /// its own records, or the events they point at (a record naming another stream's event
    /// reads as damage). The replay that answers instead reads the stream itself, and names
    /// damage that is really there.
    static func cannotAnswer(_ error: any Error) -> Bool {
        if error is Unusable { return true }
        if case StoreError.damaged = error { return true }
        return false
    }

    struct Meta: Equatable {
        /// The stream version the index was built to.
        var coveredVersion: UInt64 = 0
        /// How many events its history holds (`CreationHistory.streamVersion`).
        var streamVersion: UInt64 = 0
        var nodeCount: UInt32 = 0
        /// Moves of the head (an edit's batch is its node).
        var moveCount: UInt32 = 0
        var head = HistoryIndex.none
        var genesis = HistoryIndex.none
        var latest: HistoryOrder?
        /// Every batch is stamped no earlier than the one before it: a time is found by halving.
        var timesAscending = true
        var lastTime = Int64.min
    }

    struct Node: Equatable {
        var id: UUID
        var parent: UInt32
        /// Its events are stored at these consecutive global sequences.
        var firstSequence: UInt64
        var eventCount: UInt32
        /// The history numbers of its first and last events (`memery history` shows the last).
        var firstVersion: UInt64
        var lastVersion: UInt64
        var time: Int64
        var childCount: UInt32
        var firstChild: UInt32
        var lastChild: UInt32
        /// The parent's next child after this one.
        var nextSibling: UInt32
        /// The nearest node at or above it whose state is kept (`none`: fold from nothing).
        var checkpoint: UInt32
        /// The payload bytes to fold from that checkpoint to here.
        var foldBytes: UInt64
        /// The size of that checkpoint's state.
        var checkpointBytes: UInt64
    }

    /// What an edit did, as `memery history` says it: its events' types and its summary.
    /// A turn of the picture alone is said as a change from the state before it, which the
    /// writer may not have at hand: then `summary` is nil and a reader asks the events.
    /// The summary is `HistoryEntry.describe`'s words, kept: a change to them must bump
    /// `format`, so that kept words are written again (HistoryIndexTests freezes a sample).
    struct Description: Equatable {
        var types: [String]
        var summary: String?

        init(types: [String], summary: String?) {
            self.types = types
            self.summary = summary
        }

        /// The description of an edit of `events`, with its summary when no event needs the state before it.
        init(_ events: [CreationEvent]) {
            self.init(types: events.map(\.type), summary: HistoryTreeText.summaryWithoutState(events))
        }
    }

    // MARK: Keys

    // The index's own record comes right after the nodes: catching up writes one range.
    static let metaKey: [UInt8] = [UInt8(ascii: "h"), 0xff, 0xff, 0xff, 0xff]
    static func nodeKey(_ node: UInt32) -> [UInt8] { [UInt8(ascii: "h")] + bytes(node) }
    static func moveKey(_ move: UInt32) -> [UInt8] { [UInt8(ascii: "g")] + bytes(move) }
    static func descriptionKey(_ node: UInt32) -> [UInt8] { [UInt8(ascii: "d")] + bytes(node) }
    static func stateKey(_ node: UInt32) -> [UInt8] { [UInt8(ascii: "s")] + bytes(node) }

    static func bytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
}

/// Where the index's records are read and written: a store's transaction, or memory while a
/// replay builds them.
protocol HistoryRecords {
    func get(_ key: [UInt8]) throws -> [UInt8]?
    mutating func put(_ key: [UInt8], _ value: [UInt8]) throws
}

extension StreamCache: HistoryRecords {}

/// Records written over others without changing them: what a replay builds (over nothing),
/// what an append adds before it is known to fit, what a reader adds from the stream's tail.
struct HistoryRecordsOverlay<Base: HistoryRecords>: HistoryRecords {
    let base: Base?
    var written: [[UInt8]: [UInt8]] = [:]
    init(over base: Base?) { self.base = base }
    func get(_ key: [UInt8]) throws -> [UInt8]? { try written[key] ?? base?.get(key) }
    mutating func put(_ key: [UInt8], _ value: [UInt8]) { written[key] = value }

    /// What was written, in key order (LMDB takes sorted puts fastest).
    func flush(into target: inout some HistoryRecords) throws {
        for key in written.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) { try target.put(key, written[key]!) }
    }
}

// MARK: Reading and writing records

extension HistoryIndex {
    static func meta(in records: some HistoryRecords) throws -> Meta? {
        guard let value = try records.get(metaKey) else { return nil }
        return try FieldReader.read(value) { reader in try meta(&reader) }
    }

    private static func meta(_ reader: inout FieldReader) throws -> Meta? {
        guard try reader.u8() == format else { return nil }  // another format: built again
        var meta = Meta()
        meta.coveredVersion = try reader.u64()
        meta.streamVersion = try reader.u64()
        meta.nodeCount = try reader.u32()
        meta.moveCount = try reader.u32()
        meta.head = try reader.u32()
        meta.genesis = try reader.u32()
        if try reader.u8() == 1 { meta.latest = HistoryOrder(time: try reader.i64(), id: try reader.uuid()) }
        meta.timesAscending = try reader.u8() == 1
        meta.lastTime = try reader.i64()
        return meta
    }

    static func put(_ meta: Meta, in records: inout some HistoryRecords) throws {
        var value = [format] + bytes(meta.coveredVersion) + bytes(meta.streamVersion) + bytes(meta.nodeCount) + bytes(meta.moveCount)
        value += bytes(meta.head) + bytes(meta.genesis)
        if let latest = meta.latest {
            value += [1] + bytes(latest.time) + withUnsafeBytes(of: latest.id.uuid) { Array($0) }
        } else {
            value += [0]
        }
        value += [meta.timesAscending ? 1 : 0] + bytes(meta.lastTime)
        try records.put(metaKey, value)
    }

    static func node(_ node: UInt32, in records: some HistoryRecords) throws -> Node {
        guard let value = try records.get(nodeKey(node)) else { throw Unusable(reason: "node \(node) is missing") }
        return try FieldReader.read(value, Node.init)
    }

    static func put(_ description: Description, of node: Node, at index: UInt32, in records: inout some HistoryRecords) throws {
        let drawn = bytes(node.parent) + bytes(node.lastVersion) + bytes(node.time)
        // A type too long for its length byte (none is) is left to the events, as a summary is.
        let fits = description.types.allSatisfy { $0.utf8.count <= Int(UInt8.max) } && description.types.count <= Int(UInt8.max)
        guard fits, let summary = description.summary else { return try records.put(descriptionKey(index), drawn + [Description.askTheEvents]) }
        var value: [UInt8] = drawn + [0, UInt8(description.types.count)]
        for type in description.types { value += [UInt8(type.utf8.count)] + Array(type.utf8) }
        try records.put(descriptionKey(index), value + Array(summary.utf8))
    }
}

extension HistoryIndex.Description {
    /// The flag of a description whose summary (or more) only the events can give.
    static let askTheEvents: UInt8 = 1

    /// Nil when only the events can say what the edit did.
    init?(_ reader: inout FieldReader) throws {
        var unshared = LastTypes()
        try self.init(&reader, sharing: &unshared)
    }

    /// The types read last, as bytes and as the list made of them.
    struct LastTypes {
        var bytes: [UInt8] = []
        var list: [String] = []
    }

    /// `last`: the types read last. Consecutive edits are mostly of one type: the same list is
    /// kept rather than a new one made for each (an allocation a node, in answering 100,000).
    init?(_ reader: inout FieldReader, sharing last: inout LastTypes) throws {
        guard let (section, summary) = try Self.parts(&reader).said else { return nil }
        let same = last.bytes.count == section.count && last.bytes.withUnsafeBytes { memcmp($0.baseAddress!, section.baseAddress!, section.count) == 0 }
        if !same {
            var types = FieldReader(section)
            let list = try (0..<Int(try types.u8())).map { _ in String(decoding: try types.bytes(Int(try types.u8())), as: UTF8.self) }
            last = LastTypes(bytes: Array(section), list: list)
        }
        self.init(types: last.list, summary: String(decoding: summary, as: UTF8.self))
    }

    /// A record's parts, in place: its node's parent, last event number and time; then its
    /// types (their count, then each after its length) and its summary, nil when only the
    /// events can say what the edit did.
    static func parts(_ reader: inout FieldReader) throws
        -> (parent: UInt32, lastVersion: UInt64, time: Int64, said: (types: UnsafeRawBufferPointer, summary: UnsafeRawBufferPointer)?) {
        let (parent, lastVersion, time) = (try reader.u32(), try reader.u64(), try reader.i64())
        guard try reader.u8() & askTheEvents == 0 else { return (parent, lastVersion, time, nil) }
        let start = reader.position
        for _ in 0..<Int(try reader.u8()) { _ = try reader.bytes(Int(try reader.u8())) }
        let types = reader.read(since: start)  // the count and the types: at least a byte
        return (parent, lastVersion, time, (types, try reader.bytes(reader.remaining)))
    }
}

extension HistoryIndex.Node {
    init(_ reader: inout FieldReader) throws {
        self.init(id: try reader.uuid(), parent: try reader.u32(), firstSequence: try reader.u64(), eventCount: try reader.u32(),
                  firstVersion: try reader.u64(), lastVersion: try reader.u64(), time: try reader.i64(), childCount: try reader.u32(),
                  firstChild: try reader.u32(), lastChild: try reader.u32(), nextSibling: try reader.u32(), checkpoint: try reader.u32(),
                  foldBytes: try reader.u64(), checkpointBytes: try reader.u64())
    }
}

extension HistoryIndex {
    static func put(_ node: Node, at index: UInt32, in records: inout some HistoryRecords) throws {
        var value = withUnsafeBytes(of: node.id.uuid) { Array($0) } + bytes(node.parent) + bytes(node.firstSequence) + bytes(node.eventCount)
        value += bytes(node.firstVersion) + bytes(node.lastVersion) + bytes(node.time) + bytes(node.childCount)
        value += bytes(node.firstChild) + bytes(node.lastChild) + bytes(node.nextSibling)
        value += bytes(node.checkpoint) + bytes(node.foldBytes) + bytes(node.checkpointBytes)
        try records.put(nodeKey(index), value)
    }

    static func move(_ move: UInt32, in records: some HistoryRecords) throws -> CreationHistory.Batch {
        guard let value = try records.get(moveKey(move)) else { throw Unusable(reason: "move \(move) is missing") }
        return try FieldReader.read(value) { reader in try self.move(move, &reader) }
    }

    static func move(_ move: UInt32, _ reader: inout FieldReader) throws -> CreationHistory.Batch {
        let first = try reader.u64(), last = try reader.u64(), time = try reader.i64(), kind = try reader.u8(), node = Int(try reader.u32())
        let cause: CreationEvent.HeadMoved.Cause
        switch kind {
        case 1: cause = .undo
        case 2: cause = .redo
        case 3: cause = .checkout
        default: throw Unusable(reason: "move \(move) is of an unknown kind")
        }
        return CreationHistory.Batch(firstVersion: first, lastVersion: last, time: time, kind: .move(to: node, cause: cause))
    }

    static func put(move batch: CreationHistory.Batch, at index: UInt32, in records: inout some HistoryRecords) throws {
        guard case .move(let to, let cause) = batch.kind else { return }
        let kind: UInt8 = cause == .undo ? 1 : cause == .redo ? 2 : 3
        try records.put(moveKey(index), bytes(batch.firstVersion) + bytes(batch.lastVersion) + bytes(batch.time) + [kind] + bytes(UInt32(to)))
    }
}

/// Fixed-width big-endian fields, read in order from a record's bytes (valid only while
/// they are: inside `read`, or a scan's closure); running out is damage.
struct FieldReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    static func read<T>(_ value: [UInt8], _ body: (inout FieldReader) throws -> T) throws -> T {
        try value.withUnsafeBytes { bytes in
            var reader = FieldReader(bytes)
            return try body(&reader)
        }
    }

    var remaining: Int { bytes.count - offset }
    var position: Int { offset }

    /// The bytes read since `position` was `start`.
    func read(since start: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[start..<offset]) }

    /// The next `count` bytes, in place.
    mutating func bytes(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count <= remaining else { throw HistoryIndex.Unusable(reason: "a record is shorter than its fields") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    private mutating func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard size <= remaining else { throw HistoryIndex.Unusable(reason: "a record is shorter than its fields") }
        defer { offset += size }
        return T(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    mutating func u8() throws -> UInt8 { try integer(UInt8.self) }
    mutating func u32() throws -> UInt32 { try integer(UInt32.self) }
    mutating func u64() throws -> UInt64 { try integer(UInt64.self) }
    mutating func i64() throws -> Int64 { try integer(Int64.self) }
    mutating func uuid() throws -> UUID {
        let b = try bytes(16)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
