import Foundation
import MemeryCore
import MemeryStore

/// Between the domain's events and the store's envelopes.
enum EventCoding {
    static func newEvent(_ event: CreationEvent) throws -> NewEvent {
        NewEvent(type: event.type, schemaVersion: event.schemaVersion, payload: try event.encodedPayload())
    }

    static func domainEvent(_ stored: StoredEvent) throws -> CreationEvent {
        do {
            return try CreationEvent.decode(type: stored.type, schemaVersion: stored.schemaVersion, payload: stored.payload)
        } catch let error as EventDecodingError {
            throw StoreError.damaged(sequence: stored.sequence, reason: error.description)
        }
    }

    static func galleryEvent(_ stored: StoredEvent) throws -> GalleryEvent {
        do {
            return try GalleryEvent.decode(type: stored.type, schemaVersion: stored.schemaVersion, payload: stored.payload)
        } catch let error as EventDecodingError {
            throw StoreError.damaged(sequence: stored.sequence, reason: error.description)
        }
    }
}

extension StoredEvent {
    /// The envelope as JSON (schemas/envelope.schema.json), payload included.
    func envelopeJSON() throws -> [String: any Sendable] {
        [
            "seq": sequence,
            "batch": batch,
            "stream": stream.uuidString.lowercased(),
            "version": version,
            "type": type,
            "schema": schemaVersion,
            "time": timeMilliseconds,
            "checksum": checksumHex,
            "payload": try JSONSerialization.jsonObject(with: payload) as? [String: any Sendable] ?? [:],
        ]
    }
}
