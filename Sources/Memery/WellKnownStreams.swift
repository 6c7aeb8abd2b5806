public import Foundation

/// Streams every store has besides one per creation.
enum WellKnownStreams {
    /// The gallery: names, trash, favourites and order.
    static let gallery = UUID(uuidString: "6A11E7A0-0000-4000-8000-000000000001")!
    /// The garage: imported images with names and tags.
    static let garage = UUID(uuidString: "6A7A6E00-0000-4000-8000-000000000002")!
    /// Saved templates.
    static let templates = UUID(uuidString: "7E3B1A7E-0000-4000-8000-000000000003")!

    /// How the log names a well-known stream; nil for a creation's.
    static func name(of stream: UUID) -> String? {
        switch stream {
        case gallery: "(gallery)"
        case garage: "(garage)"
        case templates: "(templates)"
        default: nil
        }
    }
}
