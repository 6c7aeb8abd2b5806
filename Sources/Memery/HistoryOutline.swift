/// A history tree reduced to what drawing it takes: each edit's number, time, parent and
/// children in one flat array, and every summary's bytes in one buffer. `memery history`
/// draws 100,000 edits from this with no object per edit (an answer node held an id, a list
/// of children and a summary each; making, touching and freeing them was most of its time).
struct HistoryOutline {
    struct Node {
        var version: UInt64
        var time: Int64
        /// The parent's position; `root`, or `unreachable` (its parent is not in the outline:
        /// neither it nor anything under it is drawn). Nodes are in history order: a parent comes first.
        var parent: Int32
        /// The newest child's position (-1: none), and from each child the next older one's:
        /// a list threaded through the nodes, as `linkChildren` builds it.
        var newestChild: Int32 = -1
        var olderSibling: Int32 = -1
        /// Where its summary lies in `summaries`.
        var summary: Range<Int> = 0..<0
    }

    static let root: Int32 = -1, unreachable: Int32 = -2

    var nodes: [Node] = []
    /// Every summary's UTF-8, one after another.
    var summaries: [UInt8] = []
    /// The head's position.
    var head: Int?

    /// Adds `text` to the summaries and says where it lies.
    mutating func keep(_ text: some Collection<UInt8>) -> Range<Int> {
        let start = summaries.count
        summaries.append(contentsOf: text)
        return start..<summaries.count
    }

    /// Threads each node's children through the nodes, once every parent is set. A node
    /// whose parent does not come before it is left unreachable, so the lists cannot loop
    /// (the index's reader refuses such a record before this).
    mutating func linkChildren() {
        for index in nodes.indices {
            let parent = Int(nodes[index].parent)
            guard parent >= 0 else { continue }
            guard parent < index else {
                nodes[index].parent = Self.unreachable
                continue
            }
            nodes[index].olderSibling = nodes[parent].newestChild
            nodes[parent].newestChild = Int32(index)
        }
    }

    /// The node's children, oldest first.
    func children(of index: Int) -> [Int] {
        var children = [Int](), child = nodes[index].newestChild
        while child >= 0 {
            children.append(Int(child))
            child = nodes[Int(child)].olderSibling
        }
        return children.reversed()
    }

    /// The node's one child, when it has exactly one.
    func onlyChild(of index: Int) -> Int? {
        let child = nodes[index].newestChild
        return child >= 0 && nodes[Int(child)].olderSibling < 0 ? Int(child) : nil
    }
}

extension HistoryOutline {
    /// The outline of a tree's answer (its nodes by ascending number, as every answer has
    /// them). A node whose parent is not in it (a part of a tree, `since`) is not drawn, nor
    /// anything under it, as before there was an outline.
    init(_ tree: HistoryTreeAnswer) {
        let nodes = tree.nodes
        func position(_ version: UInt64) -> Int? {
            var low = 0, high = nodes.count
            while low < high {
                let middle = (low + high) / 2
                if nodes[middle].version < version { low = middle + 1 } else { high = middle }
            }
            return low < nodes.count && nodes[low].version == version ? low : nil
        }
        self.nodes.reserveCapacity(nodes.count)
        for node in nodes {
            let parent = node.parent.map { position($0).map(Int32.init) ?? Self.unreachable } ?? Self.root
            let summary = keep(node.summary.utf8)
            self.nodes.append(Node(version: node.version, time: node.time, parent: parent, summary: summary))
        }
        head = tree.head.flatMap(position)
        linkChildren()
    }
}
