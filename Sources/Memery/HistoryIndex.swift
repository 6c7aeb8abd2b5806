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
/// - `g` move: one undo, redo or checkout (a `CreationHistory.Batch` of the move kind)
/// - `h` ffffffff: the index itself (`Meta`): the stream version it covers, counts, head,
///   genesis, latest order
/// - `s` node: the state at a node (a checkpoint), JSON
enum HistoryIndex {
    static let format: UInt8 = 1
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

    // MARK: Keys

    // The index's own record comes right after the nodes: catching up writes one range.
    static let metaKey: [UInt8] = [UInt8(ascii: "h"), 0xff, 0xff, 0xff, 0xff]
    static func nodeKey(_ node: UInt32) -> [UInt8] { [UInt8(ascii: "h")] + bytes(node) }
    static func moveKey(_ move: UInt32) -> [UInt8] { [UInt8(ascii: "g")] + bytes(move) }
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
        var reader = FieldReader(value)
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
        var reader = FieldReader(value)
        return Node(id: try reader.uuid(), parent: try reader.u32(), firstSequence: try reader.u64(), eventCount: try reader.u32(),
                    firstVersion: try reader.u64(), lastVersion: try reader.u64(), time: try reader.i64(), childCount: try reader.u32(),
                    firstChild: try reader.u32(), lastChild: try reader.u32(), nextSibling: try reader.u32(), checkpoint: try reader.u32(), foldBytes: try reader.u64(), checkpointBytes: try reader.u64())
    }

    static func put(_ node: Node, at index: UInt32, in records: inout some HistoryRecords) throws {
        var value = withUnsafeBytes(of: node.id.uuid) { Array($0) } + bytes(node.parent) + bytes(node.firstSequence) + bytes(node.eventCount)
        value += bytes(node.firstVersion) + bytes(node.lastVersion) + bytes(node.time) + bytes(node.childCount)
        value += bytes(node.firstChild) + bytes(node.lastChild) + bytes(node.nextSibling)
        value += bytes(node.checkpoint) + bytes(node.foldBytes) + bytes(node.checkpointBytes)
        try records.put(nodeKey(index), value)
    }

    static func move(_ move: UInt32, in records: some HistoryRecords) throws -> CreationHistory.Batch {
        guard let value = try records.get(moveKey(move)) else { throw Unusable(reason: "move \(move) is missing") }
        var reader = FieldReader(value)
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

/// Fixed-width big-endian fields, read in order; running out is damage.
struct FieldReader {
    private let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard offset + count <= bytes.count else { throw HistoryIndex.Unusable(reason: "a record is shorter than its fields") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func unsigned(_ count: Int) throws -> UInt64 { try take(count).reduce(0) { $0 << 8 | UInt64($1) } }
    mutating func u8() throws -> UInt8 { UInt8(try unsigned(1)) }
    mutating func u32() throws -> UInt32 { UInt32(try unsigned(4)) }
    mutating func u64() throws -> UInt64 { try unsigned(8) }
    mutating func i64() throws -> Int64 { Int64(bitPattern: try unsigned(8)) }
    mutating func uuid() throws -> UUID {
        let b = Array(try take(16))
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
