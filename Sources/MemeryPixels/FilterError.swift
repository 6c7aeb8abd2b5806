/// What can go wrong with filters, each naming the filter and what to do.
public enum FilterError: Error, Equatable, CustomStringConvertible {
    /// `skipped`: the plugins found but not loaded, and why (the filter may be in one).
    case unknownFilter(String, skipped: [String] = [])
    /// A built-in filter was asked for, but the built-in library did not load.
    case builtinsMissing(filter: String, problem: String)
    case unknownParam(filter: String, param: String, known: [String])
    case invalidValue(filter: String, param: String, value: String, expected: String)
    case outOfRange(filter: String, param: String, value: Double, min: Double, max: Double)
    case failed(filter: String, status: Int32, message: String)
    /// The creation uses filters no installed plugin provides.
    case missing([String], skipped: [String] = [])
    case crashed(filter: String, signal: Int32)
    case timedOut(filter: String, seconds: Double)
    /// Stopped because nobody waits for the picture any more (`RenderCancellation`).
    case cancelled(filter: String)
    case garbled(filter: String, detail: String)
    /// It went outside the pixels it was given: a guard page or a canary caught it.
    case overran(filter: String, detail: String)
    case isolationFailed(filter: String, reason: String)
    case migrationFailed(filter: String, from: Int, reason: String)
    case newerParams(filter: String, stored: Int, installed: Int)

    public var description: String {
        switch self {
        case let .unknownFilter(id, skipped):
            return "no filter \"\(id)\" is installed" + Self.note(skipped)
        case let .builtinsMissing(filter, problem):
            return "\(filter) is a built-in filter, but \(problem); build them with "
                + "`swift build -c release --product memery-builtins` (`make demo` does), or reinstall Memery (`make install`), and try again"
        case let .unknownParam(filter, param, known):
            let list = known.isEmpty ? "it takes none" : "it takes: " + known.joined(separator: ", ")
            return "filter \(filter) has no parameter \"\(param)\"; \(list)"
        case let .invalidValue(filter, param, value, expected):
            return "\(filter) \(param) must be \(expected), got \"\(value)\""
        case let .outOfRange(filter, param, value, min, max):
            func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
            return "\(filter) \(param) must be between \(n(min)) and \(n(max)), got \(n(value))"
        case let .failed(filter, status, message):
            let reason = message.isEmpty ? "it gave no reason" : message
            return "filter \(filter) failed (status \(status)): \(reason); the creation is unchanged"
        case let .crashed(filter, signal):
            return "filter \(filter) crashed (signal \(signal)); the creation is unchanged"
        case let .timedOut(filter, seconds):
            return "filter \(filter) ran past the \(Int(seconds)) s limit and was stopped; the creation is unchanged"
        case let .cancelled(filter):
            return "\(filter) was stopped: nobody waits for the picture any more"
        case let .garbled(filter, detail):
            return "filter \(filter) failed: \(detail); the creation is unchanged"
        case let .overran(filter, detail):
            return "filter \(filter) \(detail); the creation is unchanged"
        case let .isolationFailed(filter, reason):
            return "filter \(filter) could not be run isolated: \(reason)"
        case let .migrationFailed(filter, from, reason):
            return "the stored parameters of \(filter) could not be brought up from version \(from): \(reason)"
        case let .newerParams(filter, stored, installed):
            return "\(filter)'s parameters were saved by version \(stored) of its plugin, but version \(installed) is installed: install the newer plugin"
        case let .missing(ids, skipped):
            return "this creation uses filters that are not installed: \(ids.joined(separator: ", ")); install their plugins, or export with --skip-missing-filters"
                + Self.note(skipped)
        }
    }

    /// Plugins that sit in a plugin folder but were skipped: a filter said to be missing may
    /// be in one of them, and the reason is what the user needs.
    static func note(_ skipped: [String]) -> String {
        guard !skipped.isEmpty else { return "" }
        return "\nnote: " + skipped.joined(separator: "\nnote: ")
    }
}

extension String {
    /// The text a plugin wrote into a message buffer, up to its first NUL.
    init(message buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
