public import Foundation
import MemeryStore

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
    let stored: StoredEvent

    /// The envelope as JSON values (schemas/envelope.schema.json), payload parsed. Made when
    /// asked: parsing every payload was most of `memery log`'s time. `--json` does not use
    /// it: `EnvelopeArrayWriter` writes the stored payload without parsing it.
    public func envelope() throws -> [String: any Sendable] { try stored.envelopeJSON() }
}
