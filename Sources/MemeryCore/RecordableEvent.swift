import Foundation

/// A domain event as a store records it: a type name, the version of its payload's shape,
/// and the payload as JSON. Every stream's events (creations, the gallery, the garage, the
/// templates) are written through this one description.
public protocol RecordableEvent {
    var type: String { get }
    /// The payload's shape, raised when it changes (readers upcast older ones).
    var schemaVersion: Int { get }
    func encodedPayload() throws -> Data
}

extension RecordableEvent {
    /// A stream whose payloads have never changed shape.
    public var schemaVersion: Int { 1 }
}

extension CreationEvent: RecordableEvent {}
extension GalleryEvent: RecordableEvent {}
extension Garage.Event: RecordableEvent {}
extension Templates.Event: RecordableEvent {}
