import Foundation

/// A creation as the events built it: the state `decide` reads and `evolve` writes.
public struct Creation: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var baseImage: BaseImage?
    /// Bottom to top.
    public var textLayers: [TextLayer]
    /// How many edit events built this state (on its branch of the history).
    public var version: UInt64
    /// Layer ids are never reused along one branch of the history (branches may share one).
    public var nextLayerNumber: Int

    public init(id: UUID) {
        self.id = id
        name = ""
        baseImage = nil
        textLayers = []
        version = 0
        nextLayerNumber = 1
    }

    public var exists: Bool { version > 0 }
    public var width: Int { baseImage?.width ?? 0 }
    public var height: Int { baseImage?.height ?? 0 }

    public func textLayer(_ id: String) -> TextLayer? { textLayers.first { $0.id == id } }
    public func caption(_ role: TextLayer.Role) -> TextLayer? { textLayers.first { $0.role == role } }

    /// Folds events into a state.
    public static func replay(id: UUID, _ events: some Sequence<CreationEvent>) -> Creation {
        events.reduce(into: Creation(id: id)) { $0 = $0.evolve($1) }
    }
}
