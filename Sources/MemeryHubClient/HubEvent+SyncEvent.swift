import Foundation
public import Memery
public import MemeryHubProtocol

/// Between the store's travelling events and the hub's wire type: a push's event gets its
/// checksum here, and a pulled event (its checksum checked) goes to the store without it.
extension HubEvent {
    public init(_ event: SyncEvent) {
        self.init(id: event.id, batch: event.batch, stream: event.stream, parent: event.parent, type: event.type,
                  schemaVersion: event.schemaVersion, time: event.time, payload: event.payload, blobs: event.blobs)
    }

    public var syncEvent: SyncEvent {
        SyncEvent(id: id, batch: batch, stream: stream, parent: parent, type: type, schemaVersion: schemaVersion, time: time,
                  payload: payload, blobs: blobs)
    }
}
