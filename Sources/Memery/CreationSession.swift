import Foundation
import MemeryCore
import MemeryStore

/// One creation held open for a series of edits, as `memery apply` makes them: the history
/// stays in memory, so an edit costs one decide and one durable append instead of a replay.
/// When another process edits the creation meanwhile, the append conflicts and the session
/// reloads and decides again.
public final class CreationSession {
    public let workspace: Workspace
    public let name: String
    public private(set) var history: CreationHistory
    /// Tries per edit when another process appends to the same creation meanwhile.
    private let conflictRetries = 5

    init(workspace: Workspace, name: String) throws {
        self.workspace = workspace
        self.name = name
        history = try workspace.historyForEditing(name)
    }

    /// Decides against the history in memory and appends the events as one batch; returns
    /// them once durable (none when nothing changed).
    @discardableResult
    public func change(blobs: [Data] = [], blobRefs: [String] = [],
                       _ decide: (CreationHistory) throws -> [CreationEvent]) throws -> [StoredEvent] {
        var attempt = 0
        while true {
            attempt += 1
            let events = try decide(history)
            guard !events.isEmpty else { return [] }
            do {
                let stored = try workspace.store.append(to: history.id, expectedVersion: history.streamVersion,
                                                        events: events.map(EventCoding.newEvent), blobs: blobs, blobRefs: blobRefs)
                if let last = stored.last { history.apply(events, lastVersion: last.version, time: last.timeMilliseconds) }
                return stored
            } catch StoreError.conflict where attempt < conflictRetries {
                history = try workspace.historyForEditing(name)  // someone else edited it: decide again on the new state
            }
        }
    }

    @discardableResult
    public func edit(_ command: CreationCommand, blobs: [Data] = [], blobRefs: [String] = []) throws -> [StoredEvent] {
        try change(blobs: blobs, blobRefs: blobRefs) { try $0.decide(command) }
    }

    @discardableResult
    public func undo(steps: Int = 1) throws -> [StoredEvent] { try change { try $0.decideUndo(steps: steps) } }

    @discardableResult
    public func redo(branch: Int? = nil) throws -> [StoredEvent] { try change { try $0.decideRedo(branch: branch) } }

    @discardableResult
    public func checkout(event: UInt64) throws -> [StoredEvent] {
        try change { try $0.decideCheckout(try $0.head(afterEvent: event)) }
    }

    @discardableResult
    public func checkout(at time: Date, text: String) throws -> [StoredEvent] {
        try change { try $0.decideCheckout(try Self.head($0, at: time, text: text)) }
    }

    static func head(_ history: CreationHistory, at time: Date, text: String) throws -> Int {
        try history.head(atTime: Int64((time.timeIntervalSince1970 * 1000).rounded(.down)), describedAs: text)
    }

    /// Adds a picture file as a layer (its bytes stored with the edit); returns the layer id.
    public func addImage(imageAt path: String, at: Point? = nil, scale: Double = 1, rotation: Double = 0,
                         opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        let (data, image, _) = try workspace.readImage(at: path)
        try edit(.addImage(image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip), blobs: [data])
        return history.state.layers.last?.id ?? ""
    }

    /// Adds a garage image as a layer; returns the layer id.
    public func addImage(garageImage reference: String, at: Point? = nil, scale: Double = 1, rotation: Double = 0,
                         opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        let item = try workspace.garage().find(reference)
        try edit(.addImage(item.image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip), blobRefs: [item.image.blob])
        return history.state.layers.last?.id ?? ""
    }
}
