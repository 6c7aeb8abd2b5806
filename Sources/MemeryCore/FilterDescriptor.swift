/// A filter as a plugin declares it, read out of the C structs once at load time.
public struct FilterDescriptor: Sendable, Equatable, Codable {
    public enum Origin: String, Sendable, Codable { case builtin, user, frei0r }

    public struct Param: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable { case number, integer, boolean, color, point, choice }
        public enum Unit: String, Sendable, Codable { case none, pixels, fraction, degrees }
        public var id: String
        public var name: String
        public var description: String?
        public var kind: Kind
        public var unit: Unit
        public var min: Double
        public var max: Double
        public var defaultValue: FilterValue
        public var choices: [String]

        public init(id: String, name: String, description: String?, kind: Kind, unit: Unit, min: Double, max: Double,
                    defaultValue: FilterValue, choices: [String]) {
            self.id = id; self.name = name; self.description = description; self.kind = kind; self.unit = unit
            self.min = min; self.max = max; self.defaultValue = defaultValue; self.choices = choices
        }
    }

    public var id: String
    public var name: String
    public var description: String?
    public var paramVersion: Int
    public var deterministic: Bool
    public var origin: Origin
    /// The plugin library it came from.
    public var library: String
    public var params: [Param]

    public init(id: String, name: String, description: String?, paramVersion: Int, deterministic: Bool, origin: Origin,
                library: String, params: [Param], isolated: Bool = false) {
        self.id = id; self.name = name; self.description = description; self.paramVersion = paramVersion
        self.deterministic = deterministic; self.origin = origin; self.library = library; self.params = params
        self.isolated = isolated
    }

    public func param(_ id: String) -> Param? { params.first { $0.id == id } }

    /// Whether it runs in a helper process (third-party plugins, or every plugin when
    /// MEMERY_ISOLATE_ALL=1): a crash or hang there cannot take the editor down.
    public var isolated: Bool = false
}
