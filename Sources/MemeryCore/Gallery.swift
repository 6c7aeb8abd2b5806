import Foundation

/// The list of creations: a projection of every stream's CreationCreated event.
public struct Gallery: Sendable, Equatable {
    public struct Entry: Sendable, Equatable, Codable {
        public var id: UUID
        public var name: String
    }

    /// In the order they were created.
    public private(set) var entries: [Entry] = []

    public init() {}

    public mutating func evolve(_ event: CreationEvent) {
        if case .created(let e) = event {
            entries.append(Entry(id: e.id, name: e.name))
        }
    }

    /// Names are unique ignoring case.
    public func entry(named name: String) -> Entry? {
        let key = Self.key(name)
        return entries.first { Self.key($0.name) == key }
    }

    /// The form names are compared in.
    public static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The first of `base`, `base-2`, `base-3`, ... that no creation uses.
    public func uniqueName(from base: String) -> String {
        if entry(named: base) == nil { return base }
        var n = 2
        while entry(named: "\(base)-\(n)") != nil { n += 1 }
        return "\(base)-\(n)"
    }

    public static let maxNameLength = 200

    /// Why a name cannot be used, or nil when it can.
    public static func problem(withName name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "a name needs at least one visible character" }
        if trimmed != name { return "it starts or ends with white space" }
        if name.count > maxNameLength { return "it is longer than \(maxNameLength) characters" }
        if name.hasPrefix("-") { return "it starts with '-', which reads as an option" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "it contains a control character"
        }
        return nil
    }
}
