public import Foundation
import MemeryCore
import MemeryStore

/// Between the domain's events and the store's envelopes.
enum EventCoding {
    /// The events of one edit made on `parent` (the head's edit; moves of the head name
    /// their target in the payload and have none), each with a new id.
    static func newEvents(_ events: [CreationEvent], madeOn parent: UUID?) throws -> [NewEvent] {
        try events.map { event in try newEvent(event, parent: event.isHeadMove ? nil : parent) }
    }

    /// Any stream's event as the store takes it, with a new id: the one place an event's
    /// type, payload version and payload become an envelope.
    static func newEvent(_ event: some RecordableEvent, parent: UUID? = nil) throws -> NewEvent {
        NewEvent(parent: parent, type: event.type, schemaVersion: event.schemaVersion, payload: try event.encodedPayload())
    }

    /// Where one stored append of a creation sits in its history.
    static func envelope(_ batch: ArraySlice<StoredEvent>) -> EditEnvelope? {
        guard let first = batch.first, let last = batch.last else { return nil }
        return EditEnvelope(id: first.id, parent: first.parent, lastVersion: last.version, time: last.timeMilliseconds)
    }

    /// The event a record holds; a record this build cannot read is damage, named by its sequence.
    static func decoded<E: RecordableEvent>(_ stored: StoredEvent, as type: E.Type = E.self) throws -> E {
        do {
            return try E.decode(type: stored.type, schemaVersion: stored.schemaVersion, payload: stored.payload)
        } catch let error as EventDecodingError {
            throw StoreError.damaged(sequence: stored.sequence, reason: error.description)
        }
    }

    static func domainEvent(_ stored: StoredEvent) throws -> CreationEvent { try decoded(stored) }

    static func galleryEvent(_ stored: StoredEvent) throws -> GalleryEvent { try decoded(stored) }
}

extension StoredEvent {
    /// When a gallery change was made, as every machine orders it.
    var galleryStamp: GalleryStamp { GalleryStamp(time: timeMilliseconds, id: id) }

    /// The envelope as JSON (schemas/envelope.schema.json), payload included.
    func envelopeJSON() throws -> [String: any Sendable] {
        [
            "seq": sequence,
            "batch": batch,
            "stream": stream.uuidString.lowercased(),
            "version": version,
            "id": id.uuidString.lowercased(),
            "parent": parent.map { $0.uuidString.lowercased() as any Sendable } ?? NSNull(),
            "type": type,
            "schema": schemaVersion,
            "time": timeMilliseconds,
            "checksum": checksumHex,
            "payload": try JSONSerialization.jsonObject(with: payload) as? [String: any Sendable] ?? [:],
        ]
    }
}
