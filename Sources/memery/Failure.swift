import Foundation
import Memery
import MemeryCore
import MemeryRender
import MemeryStore

/// A user-facing failure: the message after `error:` and the exit code.
struct Failure {
    var message: String
    var exitCode: Int32

    static let badInput: Int32 = 1
    static let damagedStore: Int32 = 3

    init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    /// Classifies the project's own errors; nil for argument-parser's.
    init?(_ error: Error) {
        switch error {
        case let error as InputError:
            self.init(message: error.message, exitCode: Self.badInput)
        case let error as DomainError:
            self.init(message: error.description, exitCode: Self.badInput)
        case let error as RenderError:
            self.init(message: error.description, exitCode: Self.badInput)
        case let error as FilterError:
            self.init(message: error.description, exitCode: Self.badInput)
        case let error as StoreError:
            switch error {
            case .damaged, .missingBlob, .newerFormat:
                self.init(message: error.description, exitCode: Self.damagedStore)
            default:
                self.init(message: error.description, exitCode: Self.badInput)
            }
        case let error as LMDBError:
            let damaged = [MDB_CORRUPTED_CODE, MDB_PAGE_NOTFOUND_CODE, MDB_INVALID_CODE].contains(error.code)
            self.init(message: "the store could not be used: \(error.description)",
                      exitCode: damaged ? Self.damagedStore : Self.badInput)
        case let error as EventDecodingError:
            self.init(message: error.description, exitCode: Self.damagedStore)
        default:
            return nil
        }
    }
}

// LMDB's codes for a damaged file (lmdb.h), kept here so the CLI needs no C module.
private let MDB_CORRUPTED_CODE: Int32 = -30796
private let MDB_PAGE_NOTFOUND_CODE: Int32 = -30797
private let MDB_INVALID_CODE: Int32 = -30793

/// Bad input found by the CLI itself (a value out of range, an unknown file extension).
struct InputError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
