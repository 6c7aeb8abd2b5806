import MemeryCore
import MemeryRender

/// An installed filter as `memery filter list --json` and `GET /api/filters` show it: what
/// it is, where it came from, and each parameter's range and default.
public struct FilterAnswer: Encodable, Sendable {
    public struct Param: Encodable, Sendable {
        public var id: String
        public var name: String
        public var type: String
        public var unit: String
        public var min: Double
        public var max: Double
        public var `default`: String
        public var choices: [String]
    }

    public var id: String
    public var name: String
    @Nullable public var description: String?
    public var origin: String
    public var paramVersion: Int
    public var deterministic: Bool
    public var params: [Param]

    public init(_ f: FilterDescriptor) {
        id = f.id; name = f.name; description = f.description; origin = f.origin.rawValue
        paramVersion = f.paramVersion; deterministic = f.deterministic
        params = f.params.map { p in
            Param(id: p.id, name: p.name, type: p.kind.rawValue, unit: p.unit.rawValue, min: p.min, max: p.max,
                  default: p.defaultValue.description, choices: p.choices)
        }
    }
}

/// A filter in a creation, with its parameters as the installed plugin reads them (what
/// `filter set` takes): stored by an older version, they are shown migrated, with the version
/// they were stored for (`storedParamVersion`) and a `note` when they could not be.
public struct AppliedFilterAnswer: Encodable, Sendable {
    public var position: Int
    public var id: String
    public var label: String
    public var filter: String
    public var target: String
    public var paramVersion: Int
    public var storedParamVersion: Int?
    public var params: [String: String]
    public var note: String?

    init(_ applied: AppliedFilter, position: Int) {
        let (params, note) = FilterCatalog.currentParams(of: applied)
        self.position = position; id = applied.id; label = applied.label; filter = applied.filter
        target = applied.target.description; paramVersion = applied.paramVersion
        self.params = params.mapValues { $0.description }
        if params != applied.params, let installed = FilterHost.shared.filter(applied.filter) {
            paramVersion = installed.paramVersion
            storedParamVersion = applied.paramVersion
        }
        self.note = note
    }
}
