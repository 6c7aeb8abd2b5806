import Foundation

/// An event to append: the store only knows its type name, payload version and JSON bytes.
public struct NewEvent: Sendable, Equatable {
    public var type: String
    public var schemaVersion: Int
    public var payload: Data

    public init(type: String, schemaVersion: Int, payload: Data) {
        self.type = type
        self.schemaVersion = schemaVersion
        self.payload = payload
    }
}

/// An event as stored: the envelope around the payload.
public struct StoredEvent: Sendable, Equatable {
    /// Position in the global log, from 1, without gaps.
    public var sequence: UInt64
    /// The sequence of the first event of the same `append`: events appended together
    /// share it, so a reader can tell one edit from the next.
    public var batch: UInt64
    public var stream: UUID
    /// Position in its stream, from 1, without gaps.
    public var version: UInt64
    public var type: String
    public var schemaVersion: Int
    /// Wall-clock time of the append, in milliseconds since the Unix epoch.
    public var timeMilliseconds: Int64
    public var payload: Data
    /// SHA-256 of the stored record, checked on every read.
    public var checksum: [UInt8]

    public var time: Date { Date(timeIntervalSince1970: Double(timeMilliseconds) / 1000) }
    public var checksumHex: String { checksum.map { String(format: "%02x", $0) }.joined() }
}
