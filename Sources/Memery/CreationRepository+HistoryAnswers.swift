import Foundation
import MemeryCore
import MemeryStore

extension CreationRepository {
    /// The last `count` edits leading to the head. Read from the history index, a few
    /// records and one edit's events per line, so that it costs the same at 100 edits and at
    /// 100,000; a replay answers (and builds the index again) when the index cannot.
    func headLine(_ entry: Gallery.Entry, last count: Int) throws -> HeadLineAnswer {
        let read = try fromHistoryIndex(entry) { index in
            try HeadLineAnswer(name: entry.name, events: index.streamVersion, head: index.head, last: count,
                               node: index.answerNode, parent: index.parent(of:))
        }
        if let read { return read }
        let history = try history(entry)
        return try HeadLineAnswer(name: entry.name, events: history.streamVersion, head: history.head, last: count,
                                  node: { HistoryTreeAnswer.Node($0, in: history) }, parent: { history.nodes[$0].parent })
    }

    /// The whole tree as `memery history --json` gives it: from the tree this process holds
    /// when it has one, else from the history index (no event replayed), else replayed
    /// (which builds the index for the next process).
    func historyTree(_ entry: Gallery.Entry) throws -> HistoryTreeAnswer {
        if histories.tree(entry.id) == nil, let read = try fromHistoryIndex(entry, { try $0.treeAnswer(name: entry.name) }) { return read }
        return HistoryTreeAnswer(try history(entry))
    }

    /// Whether an undo and a redo would move the head: from the index (a few records) when
    /// the tree is not already in memory.
    func headMoves(_ entry: Gallery.Entry) throws -> HeadMoves {
        if histories.tree(entry.id) == nil, let read = try fromHistoryIndex(entry, { try $0.headMoves() }) { return read }
        return try history(entry).headMoves()
    }

    /// The whole tree as `memery history` prints it, from the same places in the same order;
    /// from the index, its records copied into an outline (no answer object per edit), the
    /// read transaction ended before anything is written.
    func drawHistory(_ entry: Gallery.Entry, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        let outline: HistoryOutline
        if histories.tree(entry.id) == nil, let read = try fromHistoryIndex(entry, { try $0.outline() }) {
            outline = read
        } else {
            outline = HistoryOutline(HistoryTreeAnswer(try history(entry)))
        }
        try HistoryTreeText.draw(outline, to: write)
    }

    /// What `read` answers from the creation's history index; nil when there is none, or it
    /// cannot answer (then it is dropped, so that the replay that answers builds it again).
    private func fromHistoryIndex<T>(_ entry: Gallery.Entry, _ read: (HistoryIndexReader) throws -> T) throws -> T? {
        try Self.naming(entry.name) {
            do {
                return try store.readCache(entry.id) { cache in try HistoryIndexReader(cache).map(read) }
            } catch where HistoryIndex.cannotAnswer(error) {
                try? store.updateCache(entry.id) { try $0.removeAll() }
                return nil
            }
        }
    }
}

extension HistoryIndexReader {
    /// The edit at `node` as `memery history --json` gives it.
    func answerNode(_ node: Int) throws -> HistoryTreeAnswer.Node {
        let record = try self.node(node)
        let events = try events(of: node)
        let parent = record.parent == HistoryIndex.none ? nil : try self.node(Int(record.parent)).lastVersion
        return HistoryTreeAnswer.Node(id: record.id.uuidString.lowercased(), version: record.lastVersion, firstVersion: record.firstVersion,
                                      parent: parent, children: try children(of: node).map { try self.node($0).lastVersion },
                                      time: record.time, summary: try summary(of: node, events: events), types: events.map(\.type))
    }
}
