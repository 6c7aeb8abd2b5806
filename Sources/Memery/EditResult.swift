public import Foundation
import MemeryCore

/// What one edit did, for a front end to show: the CLI prints parts of it, `memery apply`
/// answers each line with it as JSON, `memery serve` will return it.
public struct EditResult: Sendable {
    /// The creation's name after the edit (a rename's new name); nil for garage edits.
    public var creation: String?
    /// The creation's history version after the edit: the number `history` shows and
    /// `checkout --event` takes. Nil for edits outside a creation's history.
    public var version: UInt64?
    /// The global sequence of the last event stored; nil when nothing changed.
    public var sequence: UInt64?
    /// The layer an add made or drew on, by its label (`L3`), as people name it.
    public var layer: String?
    /// The same layer's id, unique across machines.
    public var layerID: String?
    /// The position of the filter an apply added (1 first).
    public var filter: Int?
    /// The creation's state after the edit, when the edit was to a creation.
    public var state: Creation?
    /// Where the head is after undo, redo or checkout: its version and what that edit did.
    public var head: (version: UInt64, summary: String)?
    /// The garage image an import added (or found already there).
    public var garageItem: Garage.Item?

    public init(creation: String?) { self.creation = creation }

    mutating func note(_ layer: Layer?) {
        self.layer = layer?.label
        layerID = layer?.id
    }

    /// True when the edit stored something.
    public var changed: Bool { sequence != nil }
}
