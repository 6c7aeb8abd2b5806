import MemeryCore
import MemeryRender

/// The filters this process can run: the built-ins, frei0r's and the user's plugins.
public enum FilterCatalog {
    /// Every installed filter (reading every catalog, so `warnings` is complete after).
    public static var filters: [FilterDescriptor] { FilterHost.shared.filters }

    /// Plugins skipped while loading, each with the file and the reason.
    public static var warnings: [String] { FilterHost.shared.warnings }

    /// The filter with this id, or an error that says it is not installed and why.
    public static func filter(_ id: String) throws -> FilterDescriptor {
        guard let filter = FilterHost.shared.filter(id) else { throw FilterHost.shared.notInstalled(id) }
        return filter
    }

    public static func isInstalled(_ id: String) -> Bool { FilterHost.shared.filter(id) != nil }

    /// An applied filter's parameters as the installed plugin reads them: brought up through
    /// its migrate steps when they were stored for an older version (what export uses, and
    /// what `filter set` changes). `note` says what was done, or why it could not be.
    public static func currentParams(of applied: AppliedFilter) -> (params: [String: FilterValue], note: String?) {
        guard let descriptor = FilterHost.shared.filter(applied.filter), descriptor.paramVersion != applied.paramVersion else {
            return (applied.params, nil)
        }
        do {
            let params = try FilterHost.shared.current(applied.params, version: applied.paramVersion, for: applied.filter)
            return (params, "stored for version \(applied.paramVersion), shown as version \(descriptor.paramVersion) reads them")
        } catch {
            return (applied.params, "stored for version \(applied.paramVersion): \(error)")
        }
    }
}

/// Tools for plugin authors and the helper process plugins run in.
public enum PluginTools {
    public struct CheckResult: Sendable, Equatable {
        public var passed: Bool
        public var check: String
        public var reason: String
    }

    /// Loads a plugin in isolation and puts each of its filters through odd sizes, strides
    /// and parameters; with `older` (an earlier build), brings that build's stored parameters
    /// up through this one's migrate steps.
    public static func check(pluginAt path: String, since older: String? = nil) -> [CheckResult] {
        let check = PluginCheck()
        return (check.run(path) + (older.map { check.migrations(path, since: $0) } ?? []))
            .map { CheckResult(passed: $0.passed, check: $0.check, reason: $0.reason) }
    }

    /// The helper process's main: describes or runs plugins for the host; returns the exit code.
    public static func runWorker(_ arguments: [String]) -> Int32 { PluginWorker.main(arguments) }

    /// The helper process's main for decoding one picture from outside; returns the exit code.
    public static func runImageWorker(_ arguments: [String]) -> Int32 { ImageWorker.main(arguments) }
}
