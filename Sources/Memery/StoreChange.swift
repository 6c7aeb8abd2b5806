public import Foundation
import MemeryCore
import MemeryStore

/// One change to a store, as a live view follows them: which part of the store moved, and
/// for a creation, which one. Clients re-read what changed; the change carries no state.
public struct StoreChange: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A creation's history: an edit, an undo, a checkout.
        case creation
        /// The gallery: a creation made, renamed, trashed, restored, favoured, moved or purged.
        case gallery
        case garage
        case templates
    }

    /// The global sequence of the last event of this change.
    public var sequence: UInt64
    public var kind: Kind
    /// The creation's name, for a creation's change or a gallery change about one.
    public var creation: String?
    /// The creation's id, unique across machines and renames.
    public var id: UUID?
}

extension StoreChange {
    /// The changes after `sequence`, oldest first: consecutive events of one stream are one
    /// change. At most `limit` events are read.
    static func read(_ store: EventStore, gallery: Gallery, after sequence: UInt64, limit: Int) throws -> [StoreChange] {
        var names = [UUID: (name: String, id: UUID)]()  // a creation's stream and its membership stream
        for entry in gallery.all {
            names[entry.id] = (entry.name, entry.id)
            names[GalleryIndex.membershipStream(of: entry.id)] = (entry.name, entry.id)
        }
        var changes = [StoreChange]()
        var read = 0
        try store.forEachBorrowedEvent(from: sequence + 1) { event in
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

/// A change as a live view's event carries it: its sequence, its kind, and the creation's name
/// and id when it is about one.
extension StoreChange: Encodable {
    enum Keys: String, CodingKey { case sequence, kind, creation, id }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encodeIfPresent(creation, forKey: .creation)
        try container.encodeIfPresent(id?.uuidString.lowercased(), forKey: .id)
    }
}
