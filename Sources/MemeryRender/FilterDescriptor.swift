import MemeryCore

/// A filter as a plugin declares it, read out of the C structs once at load time.
public struct FilterDescriptor: Sendable, Equatable {
    public enum Origin: String, Sendable { case builtin, user, frei0r }

    public struct Param: Sendable, Equatable {
        public enum Kind: String, Sendable { case number, integer, boolean, color, point, choice }
        public enum Unit: String, Sendable { case none, pixels, fraction }
        public var id: String
        public var name: String
        public var description: String?
        public var kind: Kind
        public var unit: Unit
        public var min: Double
        public var max: Double
        public var defaultValue: FilterValue
        public var choices: [String]
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

    public func param(_ id: String) -> Param? { params.first { $0.id == id } }
}
