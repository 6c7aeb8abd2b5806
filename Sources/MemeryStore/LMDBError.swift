import CLMDB
import Foundation

/// An LMDB return code turned into a Swift error that keeps the code and LMDB's own message.
public struct LMDBError: Error, Equatable, CustomStringConvertible {
    public let code: Int32
    /// The LMDB call that failed, e.g. `mdb_put`.
    public let operation: String

    public var message: String { String(cString: mdb_strerror(code)) }
    public var description: String { "\(operation) failed: \(message) (LMDB code \(code))" }

    public var isMapFull: Bool { code == MDB_MAP_FULL }

    /// The file is not an LMDB store of this version, or its pages are damaged.
    public var meansDamage: Bool {
        [MDB_CORRUPTED, MDB_PAGE_NOTFOUND, MDB_INVALID, MDB_VERSION_MISMATCH, MDB_BAD_TXN].contains(code)
    }

    /// Every reader slot is taken, or the store is locked by another user.
    public var meansBusy: Bool { [MDB_READERS_FULL, EBUSY, EAGAIN].contains(code) }

    /// Throws for any return code but success.
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws {
        if code != MDB_SUCCESS { throw LMDBError(code: code, operation: operation()) }
    }
}
