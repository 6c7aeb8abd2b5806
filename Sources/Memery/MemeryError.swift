import MemeryCore
import MemeryRender
import MemeryStore

/// Every failure the facade lets out, classified once: the CLI maps the kind to an exit
/// code, the servers to an HTTP status. The message says what is wrong and what to do,
/// in words that fit any front end.
public struct MemeryError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// A value, a file or an edit that cannot be used.
        case badInput
        /// A creation, layer, filter, image or template that is not there.
        case notFound
        /// The name is taken, or another writer changed the same thing meanwhile.
        case conflict
        /// The store is in use beyond what it allows; try again.
        case busy
        /// The store failed its checks: nothing more is written to it.
        case damagedStore
        /// A filter plugin crashed, hung or failed; the creation is unchanged.
        case pluginFailure
        /// The store cannot be written: read-only, full disk, unusable directory.
        case storage
    }

    public var kind: Kind
    public var message: String
    /// The error classified, for callers that want its details.
    public var underlying: (any Error & Sendable)?

    public init(_ kind: Kind, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.kind = kind; self.message = message; self.underlying = underlying
    }

    public var description: String { message }

    /// What a failure of the store or the filters is about, for front ends that add their
    /// own advice (the CLI names commands); domain failures carry their `DomainError`.
    public enum Topic: Sendable { case damagedStore, missingImage, unknownFilter }

    public var topic: Topic? {
        switch underlying {
        case let error as StoreError:
            if case .damaged = error { return .damagedStore }
            if case .missingBlob = error { return .missingImage }
            return nil
        case let error as FilterError:
            if case .unknownFilter = error { return .unknownFilter }
            return nil
        default:
            return nil
        }
    }

    /// The command-line exit code: 3 for a damaged store, 1 for everything else.
    public var exitCode: Int32 { kind == .damagedStore ? 3 : 1 }

    /// Classifies any error the engine throws; nil for errors that are not the engine's.
    public init?(classifying error: any Error) {
        switch error {
        case let error as MemeryError:
            self = error
        case let error as DomainError:
            self.init(Self.kind(of: error), error.description, underlying: error)
        case let error as StaleVersion:
            self.init(.conflict, error.description, underlying: error)
        case let error as GalleryError:
            self.init(.notFound, error.description, underlying: error)
        case let error as EventDecodingError:
            self.init(.damagedStore, error.description, underlying: error)
        case let error as RenderError:
            self.init(.badInput, error.description, underlying: error)
        case let error as FilterError:
            self.init(Self.kind(of: error), error.description, underlying: error)
        case let error as StoreError:
            self.init(Self.kind(of: error), error.description, underlying: error)
        case let error as LMDBError:
            let kind: Kind = error.meansDamage ? .damagedStore : error.meansBusy ? .busy : .storage
            self.init(kind, "the store could not be used: \(error.description)", underlying: error)
        default:
            return nil
        }
    }

    static func kind(of error: DomainError) -> Kind {
        switch error {
        case .noSuchLayer, .noSuchCreation, .noSuchEvent, .noSuchGarageImage, .noSuchTemplate, .noFilters, .noDrawingLayer, .noSuchSticker:
            return .notFound
        case .nameTaken, .nameTakenInTrash, .garageNameTaken, .templateNameTaken, .alreadyInGarage:
            return .conflict
        default:
            return .badInput
        }
    }

    static func kind(of error: FilterError) -> Kind {
        switch error {
        case .unknownFilter, .builtinsMissing, .missing: return .notFound
        case .unknownParam, .invalidValue, .outOfRange: return .badInput
        case .failed, .crashed, .timedOut, .cancelled, .garbled, .overran, .isolationFailed, .migrationFailed, .newerParams: return .pluginFailure
        }
    }

    static func kind(of error: StoreError) -> Kind {
        switch error {
        case .conflict, .claimTaken, .duplicateEventID: return .conflict
        case .newerFormat, .damaged, .missingBlob: return .damagedStore
        case .unusableDirectory, .readOnly, .diskFull, .olderFormat: return .storage
        }
    }
}
