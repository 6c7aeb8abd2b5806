public import Foundation

/// An event as it travels between stores (through a hub, or into a salvaged store): what
/// its writer stored, each append whole, with the pictures it uses named. The hub client
/// carries these in its wire type (`HubEvent`), which adds a checksum and the hub's place.
public struct SyncEvent: Sendable, Equatable {
    /// Unique across every store: stored once however often it comes.
    public var id: UUID
    /// The id of the first event of the append it belongs to: one edit travels whole.
    public var batch: UUID
    public var stream: UUID
    /// The edit (by id) this event's edit was made on.
    public var parent: UUID?
    public var type: String
    public var schemaVersion: Int
    /// Wall-clock time of the append, in milliseconds since the Unix epoch.
    public var time: Int64
    /// The event's JSON payload, as stored.
    public var payload: String
    /// The pictures (SHA-256, hex) the event refers to.
    public var blobs: [String]

    public init(id: UUID, batch: UUID, stream: UUID, parent: UUID?, type: String, schemaVersion: Int, time: Int64,
                payload: String, blobs: [String]) {
        self.id = id; self.batch = batch; self.stream = stream; self.parent = parent; self.type = type
        self.schemaVersion = schemaVersion; self.time = time; self.payload = payload; self.blobs = blobs
    }
}
