import Foundation

/// A domain event as a store records it: a type name, the version of its payload's shape,
/// and the payload as JSON. Every stream's events (creations, the gallery, the garage, the
/// templates) are written and read through this one description: the decider's own coding.
public protocol RecordableEvent: Sendable {
    var type: String { get }
    /// The payload's shape, raised when it changes (readers upcast older ones).
    var schemaVersion: Int { get }
    func encodedPayload() throws -> Data
    /// The event a record holds; throws `EventDecodingError` naming what is wrong.
    static func decode(type: String, schemaVersion: Int, payload: Data) throws -> Self
}

extension RecordableEvent {
    /// A stream whose payloads have never changed shape.
    public var schemaVersion: Int { 1 }
}

extension CreationEvent: RecordableEvent {}
extension GalleryEvent: RecordableEvent {}
extension Garage.Event: RecordableEvent {}
extension Templates.Event: RecordableEvent {}
