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
    /// JSONSerialization) for every line was most of `memery log`'s time. A payload that is
    /// not JSON fails only `--json` now.
    public func envelope() throws -> [String: any Sendable] { try stored.envelopeJSON() }
}
