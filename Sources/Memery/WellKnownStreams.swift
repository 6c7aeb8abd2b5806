import Foundation

/// Streams every store has besides one per creation.
enum WellKnownStreams {
    /// The gallery: names, trash, favourites and order.
    static let gallery = UUID(uuidString: "6A11E7A0-0000-4000-8000-000000000001")!
}
