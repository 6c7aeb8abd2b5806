public import Foundation
import MemeryStore

/// An event the store has made durable, as the facade's callers see it: its place in the
/// log and in its stream's history, its id and its type. The store's own record
/// (`StoredEvent`, with its bytes) stays behind the facade.
public struct RecordedEvent: Sendable, Equatable {
    /// Its place in the store's log (what `history` and `--json` call "seq").
    public var sequence: UInt64
    /// The creation (or well-known stream) it belongs to, and its version there.
    public var stream: UUID
    public var version: UInt64
    public var id: UUID
    public var type: String

    init(_ stored: StoredEvent) {
        sequence = stored.sequence
        stream = stored.stream
        version = stored.version
        id = stored.id
        type = stored.type
    }
}

extension Array where Element == StoredEvent {
    /// The events as the facade hands them out.
    var recorded: [RecordedEvent] { map(RecordedEvent.init) }
}
