import Foundation
import MemeryCore
import MemeryStore

/// How a creation's stored events become its history: grouped into appends (one edit or one
/// move of the head each), and appends put in the order every machine agrees on.
enum HistoryOrdering {
    /// Stored events grouped by batch: one batch is one edit or one move of the head.
    static func batches(_ stored: [StoredEvent]) -> [ArraySlice<StoredEvent>] {
        var result = [ArraySlice<StoredEvent>]()
        var start = stored.startIndex
        while start < stored.endIndex {
            var end = start
            while end < stored.endIndex, stored[end].batch == stored[start].batch { end += 1 }
            result.append(stored[start..<end])
            start = end
        }
        return result
    }

    /// A creation's events, appends sorted by `HistoryOrder` and events renumbered 1, 2, ...
    /// in that order. One machine's own appends are in that order already (each is stamped
    /// after the last), so only appends that came by sync move, and only on machines that
    /// had edits of their own meanwhile. An append never goes before the edit it was made on
    /// (or, for undo, redo and checkout, the edit it moves to): appends stored before stamping,
    /// across a clock set back, keep the order they were made in.
    static func inHistoryOrder(_ stored: [StoredEvent]) -> [StoredEvent] {
        let batches = Self.batches(stored)
        let envelopes = batches.map { EventCoding.envelope($0) }
        let sorted = batches.indices.sorted { x, y in
            guard let a = envelopes[x]?.order, let b = envelopes[y]?.order, a != b else { return x < y }
            return a < b
        }
        guard sorted != Array(batches.indices) else { return stored }
        var index = [UUID: Int]()
        for (position, envelope) in envelopes.enumerated() { if let envelope { index[envelope.id] = position } }
        func dependency(_ position: Int) -> Int? {
            let batch = batches[position]
            if batch.count == 1, let first = batch.first, case .headMoved(let move)? = try? EventCoding.domainEvent(first) {
                return index[move.to]
            }
            return envelopes[position]?.parent.flatMap { index[$0] }
        }
        var emitted = [Bool](repeating: false, count: batches.count), waiting = [Int: [Int]](), chosen = [Int]()
        func emit(_ position: Int) {
            emitted[position] = true
            chosen.append(position)
            for next in waiting.removeValue(forKey: position) ?? [] { emit(next) }
        }
        for position in sorted {
            if let before = dependency(position), !emitted[before] { waiting[before, default: []].append(position) } else { emit(position) }
        }
        for position in sorted where !emitted[position] { emit(position) }  // (never: dependencies point backwards in time)
        guard chosen != Array(batches.indices) else { return stored }
        var ordered = [StoredEvent]()
        ordered.reserveCapacity(stored.count)
        for position in chosen {
            for var event in batches[position] {
                event.version = UInt64(ordered.count + 1)
                ordered.append(event)
            }
        }
        return ordered
    }
}
