import MemeryCore

/// A creation's history tree as `memery history --json` prints it and the editor draws it:
/// every edit (node) with its parent and children by version, every move of the head, the
/// head, and `tip`, which names the tree as far as it goes. Given what a page already holds
/// (`since` and its `tip`), only what came after, marked `since`; the whole tree when that
/// part is not this tree's (an edit synced in before its end).
public struct HistoryTreeAnswer: Encodable, Sendable, Equatable {
    public struct Node: Encodable, Sendable, Equatable {
        public var id: String
        public var version: UInt64
        public var firstVersion: UInt64
        @Nullable public var parent: UInt64?
        public var children: [UInt64]
        public var time: Int64
        public var summary: String
        public var types: [String]
    }
    public struct Move: Encodable, Sendable, Equatable {
        public var version: UInt64
        public var time: Int64
        public var cause: String
        public var to: UInt64
    }

    public var name: String
    @Nullable public var head: UInt64?
    public var events: UInt64
    public var nodes: [Node]
    public var moves: [Move]
    public var tip: String
    public var since: UInt64?

    init(name: String, head: UInt64?, events: UInt64, nodes: [Node], moves: [Move], tip: String) {
        self.name = name
        self.head = head
        self.events = events
        self.nodes = nodes
        self.moves = moves
        self.tip = tip
    }

    public init(_ history: CreationHistory, since: UInt64? = nil, tip: String? = nil) {
        var after: UInt64?
        if let since, let tip, since <= history.streamVersion, history.batches.contains(where: { $0.lastVersion == since }),
           HistoryTreeText.tip(of: history, through: since) == tip {
            after = since
        }
        nodes = history.nodes.indices.filter { history.nodes[$0].version > after ?? 0 }.map { Node($0, in: history) }
        moves = history.batches.compactMap { batch in
            guard case let .move(to, cause) = batch.kind, batch.lastVersion > after ?? 0 else { return nil }
            return Move(version: batch.lastVersion, time: batch.time, cause: cause.rawValue, to: history.nodes[to].version)
        }
        name = history.state.name
        head = history.head.map { history.nodes[$0].version }
        events = history.streamVersion
        self.tip = HistoryTreeText.tip(of: history, through: history.streamVersion)
        self.since = after
    }
}

extension HistoryTreeAnswer.Node {
    init(_ index: Int, in history: CreationHistory) {
        let node = history.nodes[index]
        self.init(id: node.id.lowercasedString, version: node.version, firstVersion: node.firstVersion,
                  parent: node.parent.map { history.nodes[$0].version }, children: node.children.map { history.nodes[$0].version },
                  time: node.time, summary: HistoryTreeText.summary(index, in: history), types: node.events.map(\.type))
    }
}
