import Memery

/// What to type next, after the engine's message says what is wrong: hints that name
/// commands belong to the command line, not to the engine other front ends share.
enum Hints {
    static func hint(for error: MemeryError) -> String? {
        switch error.underlying {
        case let error as DomainError:
            switch error {
            case .noSuchLayer: return "`memery show NAME` lists the layers"
            case .noSuchCreation: return "`memery list` shows the gallery"
            case .nothingToRedo: return "`memery history NAME` shows the branches"
            case .alreadyTrashed(let name): return "`memery restore \(DomainError.shortened(name))` brings it back"
            case .inTrash(let name): return "`memery restore \(DomainError.shortened(name))` first"
            case .nameTakenInTrash(let name):
                let quoted = DomainError.shortened(name).contains(" ") ? "\"\(DomainError.shortened(name))\"" : DomainError.shortened(name)
                return "`memery restore \(quoted)` brings it back; `memery purge \(quoted)` deletes it for good"
            case .noSuchGarageImage: return "`memery garage list` shows them"
            case .noSuchTemplate: return "`memery template list` shows them"
            case .noFilters: return "`memery filter apply NAME ID` adds one"
            case let .pictureTooBig(_, _, _, _, _, _, fits): return "add it with --scale \(DomainError.number(fits))"
            default: return nil
            }
        default:
            switch error.topic {
            case .damagedStore: return "run `memery verify` to see what is damaged, and `memery salvage NEW_STORE` to copy everything readable into a new store (or restore from a backup)"
            case .missingImage: return "run `memery verify`"
            case .unknownFilter: return "`memery filter list` shows the filters there are"
            case nil: return nil
            }
        }
    }
}
