import Foundation

/// A creation's state at the head of its history, without the tree: what showing,
/// exporting and editing need. Snapshots store it, so opening a creation folds only the
/// events since the last snapshot, however long the history. Undo, redo and checkout need
/// the whole tree (`CreationHistory`).
public struct CreationHead: Sendable, Equatable, Codable {
    public var state: Creation
    /// How many events the stream holds: the version the next append expects.
    public var streamVersion: UInt64
    /// The edit at the head, by the stream version of its last event.
    public var headVersion: UInt64?

    public init(_ history: CreationHistory) {
        state = history.state
        streamVersion = history.streamVersion
        headVersion = history.head.map { history.nodes[$0].version }
    }

    public init(state: Creation, streamVersion: UInt64, headVersion: UInt64?) {
        self.state = state
        self.streamVersion = streamVersion
        self.headVersion = headVersion
    }

    public init(id: UUID) {
        state = Creation(id: id)
        streamVersion = 0
        headVersion = nil
    }

    /// Applies one append. Returns false, changing nothing, for a move of the head, which
    /// only the whole tree can follow.
    public mutating func apply(_ events: [CreationEvent], lastVersion: UInt64) -> Bool {
        if events.contains(where: \.isHeadMove) { return false }
        state = events.reduce(state) { $0.evolve($1) }
        streamVersion = lastVersion
        headVersion = lastVersion
        return true
    }

    /// The snapshot format: a snapshot of another format is ignored and rebuilt.
    public static let snapshotFormat = 1

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    public static func decoded(_ data: Data) -> CreationHead? {
        try? JSONDecoder().decode(CreationHead.self, from: data)
    }
}
