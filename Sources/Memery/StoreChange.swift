public import Foundation

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
