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

    /// The envelope as JSON (schemas/envelope.schema.json), payload included. Made when
    /// asked: only `--json` prints it, and parsing every payload (Foundation's
    /// JSONSerialization) was a third of `memery log`'s text.
    public func envelope() throws -> [String: any Sendable] { try stored.envelopeJSON() }
}
