import Foundation

/// A creation's state at the head of its history, without the tree: what showing,
/// exporting and editing need. Snapshots store it, so opening a creation folds only the
/// events since the last snapshot, however long the history. Undo, redo and checkout need
/// the tree: the index the store keeps of it (`HistoryNavigation`), or `CreationHistory`.
public struct CreationHead: Sendable, Equatable, Codable {
    public var state: Creation
    /// How many events the stream holds: the version the next append expects.
    public var streamVersion: UInt64
    /// The edit at the head, by the stream version of its last event (in this store).
    public var headVersion: UInt64?
    /// The edit at the head, by id: the parent of the next edit.
    public var headEdit: UUID?
    /// The latest append folded in: one that sorts before it (from another machine) needs the tree.
    public var latest: HistoryOrder?

    public init(_ history: CreationHistory) {
        state = history.state
        streamVersion = history.streamVersion
        headVersion = history.head.map { history.nodes[$0].version }
        headEdit = history.head.map { history.nodes[$0].id }
        latest = history.latest
    }

    public init(state: Creation, streamVersion: UInt64, headVersion: UInt64?, headEdit: UUID?, latest: HistoryOrder?) {
        self.state = state
        self.streamVersion = streamVersion
        self.headVersion = headVersion
        self.headEdit = headEdit
        self.latest = latest
    }

    public init(id: UUID) {
        state = Creation(id: id)
        streamVersion = 0
        headVersion = nil
        headEdit = nil
    }

    /// Applies one append. Returns false, changing nothing, for a move of the head, an
    /// edit made on another edit than the head, or one that sorts before the latest (a
    /// branch or an edit that came by sync), which only the whole tree can place.
    public mutating func apply(_ events: [CreationEvent], _ envelope: EditEnvelope) -> Bool {
        if events.contains(where: \.isHeadMove) || envelope.parent != headEdit { return false }
        if let latest, envelope.order < latest { return false }
        state.fold(events)
        streamVersion = envelope.lastVersion
        headVersion = envelope.lastVersion
        headEdit = envelope.id
        latest = envelope.order
        return true
    }

    /// The snapshot format: a snapshot of another format is ignored and rebuilt.
    /// (2: the head is named by id too, as store format 2 does; 3: captions re-fit the canvas
    /// after crops, rotations and flips, and a picture can turn alone;
    /// 4: the latest append's order, so that one from another machine is placed by the tree.)
    public static let snapshotFormat = 4

    /// JSON with sorted keys, by the encoder events use: at 2,000 layers (624 KiB) Foundation's
    /// JSONEncoder took 47-60 ms, and every snapshot renewal of such a creation paid it.
    public func encoded() throws -> Data { try PlainPayloadWriter.write(plainWrite) ?? SortedJSONEncoder().encode(self) }

    public static func decoded(_ data: Data) -> CreationHead? {
        plainDecode(data) ?? (try? PayloadJSONDecoder().decode(CreationHead.self, from: data))
    }
}
