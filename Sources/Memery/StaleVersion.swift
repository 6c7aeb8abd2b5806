/// An edit made on condition that the creation was still at a version it no longer is
/// (another tab or process edited it meanwhile): nothing was stored.
public struct StaleVersion: Error, CustomStringConvertible, Sendable {
    public var expected: UInt64
    public var current: UInt64
    /// The creation's name, as the person knows it.
    public var name: String?

    public init(expected: UInt64, current: UInt64, name: String? = nil) {
        self.expected = expected
        self.current = current
        self.name = name
    }

    public var description: String {
        "\(name.map { "\"\($0)\"" } ?? "the creation") has changed since version \(expected): it is at version \(current); reload it and edit again"
    }
}
