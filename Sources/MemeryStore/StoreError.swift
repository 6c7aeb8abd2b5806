import Foundation

/// What can go wrong in the event store, each with a message that says what to do.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// `append` was given an expected version the stream has moved past (or not reached).
    case conflict(stream: UUID, expected: UInt64, actual: UInt64)
    /// A unique claim (such as a creation name) is held by another stream.
    case claimTaken(claim: String, owner: UUID)
    /// The store was written by a newer Memery.
    case newerFormat(found: Int, supported: Int)
    /// A record failed its checksum or could not be decoded.
    case damaged(sequence: UInt64?, reason: String)
    /// The store directory cannot be used.
    case unusableDirectory(path: String, reason: String)
    /// A blob an event refers to is missing.
    case missingBlob(hash: String)
    case readOnly(path: String)
    case diskFull(path: String)
    /// The store's files are in an older format: they must be migrated before any write.
    case olderFormat(found: Int, path: String)
    /// Two different events were given one id.
    case duplicateEventID(UUID)

    public var description: String {
        switch self {
        case let .conflict(stream, expected, actual):
            return "stream \(stream.uuidString.lowercased()) is at version \(actual), not \(expected): someone else edited it; reload and try again"
        case let .claimTaken(claim, owner):
            return "\"\(claim)\" is already taken by stream \(owner.uuidString.lowercased())"
        case let .newerFormat(found, supported):
            return "this store has format \(found) but this memery reads format \(supported) at most; use a newer memery"
        case let .damaged(sequence, reason):
            let at = sequence.map { " at sequence \($0)" } ?? ""
            return "the store is damaged\(at): \(reason)"
        case let .unusableDirectory(path, reason):
            return "cannot use store directory \(path): \(reason)"
        case let .readOnly(path):
            return "the store \(path) is read-only: it can be read, but nothing can be changed; make it writable to edit"
        case let .diskFull(path):
            return "the disk holding the store \(path) is full (or failing): nothing was stored; free some space and try again"
        case let .olderFormat(found, path):
            return "the store \(path) is in format \(found) and must be migrated to format \(EventStore.formatVersion) before it is used, which needs it writable: make it writable and run this memery again"
        case let .duplicateEventID(id):
            return "event id \(id.uuidString.lowercased()) is already stored for a different event: nothing was stored"
        case let .missingBlob(hash):
            return "blob \(hash) is missing from the store"
        }
    }
}
