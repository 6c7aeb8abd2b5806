public import Foundation

/// One event of the store's global log, as `memery log` shows it.
public struct LogEntry: Sendable {
    public var sequence: UInt64
    public var stream: UUID
    /// The creation's name, "(gallery)", "(garage)" or "(templates)"; nil for a stream no
    /// longer in the gallery.
    public var streamName: String?
    public var version: UInt64
    public var timeMilliseconds: Int64
    public var type: String
    /// The envelope as JSON (schemas/envelope.schema.json), payload included.
    public var envelope: [String: any Sendable]
}
