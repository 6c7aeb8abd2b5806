public import Foundation
import MemeryCore
import MemeryStore

extension Workspace {
    /// The one path by which a decider's command becomes stored events — a creation's
    /// membership, the garage, the templates (and, keeping its head open, a creation:
    /// `CreationSession`): load the state and its stream's version, decide, append with that
    /// version, and when another process appended meanwhile, load and decide again
    /// (`writing`). Returns the state after the events and the events once durable (none
    /// when the command changed nothing).
    func decide<D: Decider>(_ command: D.Command, on stream: UUID, load: () throws -> (state: D, version: UInt64),
                            encode: (D.Event) throws -> NewEvent, blobs: [Data] = [], blobRefs: [String] = [],
                            claim: [String] = [], release: [String] = [], owner: UUID? = nil,
                            now: () throws -> Date = { Date() }) throws -> (state: D, stored: [StoredEvent]) {
        try writing { _ in
            let (state, version) = try load()
            let events = try state.decide(command)
            guard !events.isEmpty else { return (state, []) }
            let stored = try store.append([EventStore.StreamWrite(stream: stream, expectedVersion: version, events: try events.map(encode))],
                                          blobs: blobs, blobRefs: blobRefs, claim: claim, release: release, owner: owner, now: try now())
            return (state.evolve(events), stored)
        }
    }
}
