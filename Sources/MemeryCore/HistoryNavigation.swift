import Foundation

/// What undo, redo and checkout read of a creation's history, node by node: the whole tree
/// in memory (`CreationHistory`), or the index a store keeps beside the stream, read a
/// record at a time so that a new process need not replay every event. The rules that
/// decide a move of the head are written once, here, over either.
///
/// Nodes are numbered in the order their edits sort in the history (0 is the first edit);
/// batches (an edit or a move of the head each) likewise, and hold the event numbers
/// `memery history` shows.
public protocol HistoryNavigation {
    /// The node whose state is shown and edited; nil before the first edit.
    var head: Int? { get }
    /// The first node at which the creation has a canvas; undo never goes above it.
    var genesis: Int? { get }
    /// How many events the history holds.
    var streamVersion: UInt64 { get }
    func editID(of node: Int) throws -> UUID
    func parent(of node: Int) throws -> Int?
    /// The node's children, oldest first; the last is the one redo follows by default.
    func childCount(of node: Int) throws -> Int
    /// Child `number` of `node`, 1 = the oldest.
    func child(_ number: Int, of node: Int) throws -> Int
    /// The batch holding event `version`, if it is in one.
    func batch(holdingEvent version: UInt64) throws -> CreationHistory.Batch?
    /// The head after the last batch that starts at or before event `version`.
    func head(afterBatchStartingAtOrBefore version: UInt64) throws -> Int?
    /// The head after the last batch, in history order, made at or before `time`.
    func head(afterBatchMadeAtOrBefore time: Int64) throws -> Int?
    /// The creation as it was at `node`.
    func state(at node: Int) throws -> Creation
}

extension HistoryNavigation {
    /// The head right after the append holding event `version` (the state as it was then).
    public func head(afterEvent version: UInt64) throws -> Int {
        guard version >= 1, version <= streamVersion else { throw DomainError.noSuchEvent(version, last: streamVersion) }
        guard let result = try head(afterBatchStartingAtOrBefore: version), try isComplete(result) else {
            throw DomainError.notYetCreated(at: "event \(version)")
        }
        return result
    }

    /// The edit `memery history` shows as `v<version>`, or the edit holding that event (one
    /// edit may store several). A move of the head (an undo, redo or checkout) is no edit
    /// and is refused, saying what it is, rather than landing somewhere unsaid.
    public func edit(shownAs version: UInt64) throws -> Int {
        guard version >= 1, version <= streamVersion else { throw DomainError.noSuchEvent(version, last: streamVersion) }
        guard let batch = try batch(holdingEvent: version) else {
            throw DomainError.notAnEdit(version, what: "a move of the head to an edit this machine does not have")
        }
        switch batch.kind {
        case .edit(let node):
            guard try isComplete(node) else { throw DomainError.notYetCreated(at: "event \(version)") }
            return node
        case .move(_, let cause):
            throw DomainError.notAnEdit(version, what: cause == .undo ? "an undo" : cause == .redo ? "a redo" : "a checkout")
        }
    }

    /// The head as it was at `time` (milliseconds since the Unix epoch).
    public func head(atTime time: Int64, describedAs description: String) throws -> Int {
        guard let result = try head(afterBatchMadeAtOrBefore: time), try isComplete(result) else {
            throw DomainError.notYetCreated(at: description)
        }
        return result
    }

    func isComplete(_ node: Int) throws -> Bool {
        guard let genesis else { return false }
        guard node >= genesis else { return false }
        return try state(at: node).canvas != nil
    }

    /// Whether an undo and a redo would move the head now: what the editor's buttons offer,
    /// by the same rules `decideUndo` and `decideRedo` follow.
    public func headMoves() throws -> HeadMoves {
        guard let head else { return HeadMoves(undo: false, redo: false) }
        return HeadMoves(undo: try head != genesis && parent(of: head) != nil, redo: try childCount(of: head) > 0)
    }

    /// Moves the head `steps` edits towards the first (as far as it goes, but at least one).
    public func decideUndo(steps: Int = 1) throws -> [CreationEvent] {
        guard steps >= 1 else { throw DomainError.outOfRange(field: "steps", value: Double(steps), range: 1...1_000_000) }
        guard var target = head else { throw DomainError.nothingToUndo }
        var moved = 0
        while moved < steps, target != genesis, let parent = try parent(of: target) {
            target = parent
            moved += 1
        }
        guard moved > 0 else { throw DomainError.nothingToUndo }
        return [.headMoved(.init(to: try editID(of: target), cause: .undo))]
    }

    /// Moves the head to a child: the newest by default, or branch `branch` (1 = oldest).
    public func decideRedo(branch: Int? = nil) throws -> [CreationEvent] {
        guard let head else { throw DomainError.nothingToRedo }
        let count = try childCount(of: head)
        guard count > 0 else { throw DomainError.nothingToRedo }
        if let branch, !(1...count).contains(branch) {
            throw DomainError.outOfRange(field: "branch", value: Double(branch), range: 1...Double(count))
        }
        return [.headMoved(.init(to: try editID(of: try child(branch ?? count, of: head)), cause: .redo))]
    }

    /// Moves the head to `node`; nothing when it is there already.
    public func decideCheckout(_ node: Int) throws -> [CreationEvent] {
        guard node != head else { return [] }
        return [.headMoved(.init(to: try editID(of: node), cause: .checkout))]
    }
}

/// Whether the head can go back (undo) and forward (redo) from where it is.
public struct HeadMoves: Sendable, Equatable {
    public var undo: Bool
    public var redo: Bool

    public init(undo: Bool, redo: Bool) { (self.undo, self.redo) = (undo, redo) }
}
