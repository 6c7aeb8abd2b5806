import MemeryCore

/// The edits that lead to the head, oldest first, as `memery history NAME --last N` prints
/// them: a history too long to read whole, seen where the work is. Each edit is a node as
/// `HistoryTreeAnswer` gives it (its children name the branches that leave the line);
/// `before` is the edit just above the first one shown, nil when the line is shown from its start.
public struct HeadLineAnswer: Encodable, Sendable, Equatable {
    public var name: String
    @Nullable public var head: UInt64?
    public var events: UInt64
    public var nodes: [HistoryTreeAnswer.Node]
    @Nullable public var before: UInt64?

    /// Walks up from the head to at most `count` edits; `node` describes one, `parent` steps up.
    init(name: String, events: UInt64, head: Int?, last count: Int,
         node: (Int) throws -> HistoryTreeAnswer.Node, parent: (Int) throws -> Int?) throws {
        var line = [HistoryTreeAnswer.Node]()
        var current = head
        while let index = current, line.count < count {
            line.append(try node(index))
            current = try parent(index)
        }
        self.name = name
        self.events = events
        self.head = line.first?.version
        nodes = line.reversed()
        before = current == nil ? nil : nodes.first?.parent
    }
}
