public import Foundation
import MemeryCore
import MemeryStore

/// The store's changes, for live views (`memery serve`'s event stream): every append, by
/// this process or another, in the order of the global log.
extension Workspace {
    /// The global sequence of the newest event (0 for an empty store).
    public func lastSequence() throws -> UInt64 { try store.lastSequence() }

    /// What changed after `sequence`, oldest first: consecutive events of one stream are one
    /// change. At most `limit` events are read; call again from the last change's sequence.
    public func changes(after sequence: UInt64, limit: Int = 10_000) throws -> [StoreChange] {
        var names = [UUID: (name: String, id: UUID)]()  // a creation's stream and its membership stream
        for entry in try gallery().all {
            names[entry.id] = (entry.name, entry.id)
            names[Self.membershipStream(of: entry.id)] = (entry.name, entry.id)
        }
        var changes = [StoreChange]()
        var read = 0
        try store.forEachEvent(from: sequence + 1) { event in
            read += 1
            let kind: StoreChange.Kind
            switch event.stream {
            case WellKnownStreams.garage: kind = .garage
            case WellKnownStreams.templates: kind = .templates
            case WellKnownStreams.gallery: kind = .gallery
            default: kind = GalleryEvent.types.contains(event.type) ? .gallery : .creation
            }
            let named = names[event.stream]
            if var last = changes.last, last.kind == kind, last.id == named?.id {
                last.sequence = event.sequence
                changes[changes.count - 1] = last
            } else {
                changes.append(StoreChange(sequence: event.sequence, kind: kind, creation: named?.name, id: named?.id))
            }
            return read < limit
        }
        return changes
    }
}
