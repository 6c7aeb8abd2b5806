public import Foundation
import MemeryCore
import MemeryStore

/// One stored event, described for people.
public struct HistoryEntry: Sendable {
    /// The event's number in its creation's history (its stream version).
    public var version: UInt64
    /// Its place in the store's global log.
    public var sequence: UInt64
    public var timeMilliseconds: Int64
    public var type: String
    public var summary: String
    let stored: StoredEvent

    /// The envelope as JSON values (schemas/envelope.schema.json), payload parsed. Made when
    /// asked; `--json` writes it through `EnvelopeArrayWriter` instead.
    public func envelope() throws -> [String: any Sendable] { try stored.envelopeJSON() }

    init(_ stored: StoredEvent, _ event: CreationEvent, in history: CreationHistory) throws {
        version = stored.version
        sequence = stored.sequence
        timeMilliseconds = stored.timeMilliseconds
        type = stored.type
        var target: UInt64?
        if case .headMoved(let move) = event { target = history.node(id: move.to).map { history.nodes[$0].version } }
        var placementBefore: Transform?
        if case .baseImageMoved = event,
           let node = history.node(version: stored.version) ?? history.nodes.indices.first(where: {
               (history.nodes[$0].firstVersion...history.nodes[$0].version).contains(stored.version) }) {
            let position = Int(stored.version - history.nodes[node].firstVersion)
            placementBefore = Self.state(before: position, inNode: node, of: history).basePlacement
        }
        summary = Self.describe(event, moveTarget: target, placementBefore: placementBefore)
        self.stored = stored
    }

    /// The creation just before the event at `position` of the node at `index`.
    static func state(before position: Int, inNode index: Int, of history: CreationHistory) -> Creation {
        let node = history.nodes[index]
        let start = node.parent.map(history.state(at:)) ?? Creation(id: history.id)
        return start.evolve(node.events.prefix(position).filter { !$0.isHeadMove })
    }

    /// The history index keeps these words (`HistoryIndex.Description`): changing them
    /// means bumping `HistoryIndex.format`, or `memery history` shows the old words.
    /// `moveTarget`: where a move of the head went, by the event number people see.
    /// `placementBefore`: where the picture was before a turn of the picture alone, so that
    /// the turn is said as what changed.
    public static func describe(_ event: CreationEvent, moveTarget: UInt64? = nil, placementBefore: Transform? = nil) -> String {
        // Words a person wrote are escaped: these are printed in terminals.
        func quoted(_ text: String) -> String { PrintableText.quoted(text, limit: 40) }
        func named(_ source: String?) -> String? { source.map { PrintableText.escaped($0) } }
        // An id comes in events from other devices too: its label is escaped as well.
        func label(_ id: String) -> String { PrintableText.escaped(LocalLabel.of(id)) }
        func n(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value) }
        switch event {
        case .created(let e): return "created \(quoted(e.name))"
        case .baseImageImported(let e):
            return "imported \(named(e.image.sourceName) ?? "an image") (\(e.image.format), \(e.image.width)x\(e.image.height))"
        case .canvasCreated(let e): return "blank \(e.width)x\(e.height) canvas (\(e.background))"
        case .startedFromTemplate(let e): return "started from template \(quoted(e.template)) (\(e.canvas.width)x\(e.canvas.height))"
        case .textLayerAdded(let e):
            let text = e.layer.text
            return "added \(text?.role.rawValue ?? "") text \(label(e.layer.id)) \(quoted(text?.text ?? ""))"
        case .textLayerEdited(let e):
            var parts = [String]()
            if let text = e.text { parts.append("text \(quoted(text))") }
            if e.box != nil { parts.append("box") }
            if e.style != nil { parts.append("style") }
            return "edited \(label(e.id)): " + parts.joined(separator: ", ")
        case .imageLayerAdded(let e):
            if case .image(let content) = e.layer.content {
                return "added image \(label(e.layer.id)) \(named(content.image.sourceName) ?? content.image.blob.prefix(12) + "…") (\(content.width)x\(content.height))"
            }
            return "added image \(label(e.layer.id))"
        case .shapeLayerAdded(let e):
            if case .shape(let shape) = e.layer.content { return "added \(shape.kind) \(label(e.layer.id)) (\(n(shape.width))x\(n(shape.height)))" }
            return "added shape \(label(e.layer.id))"
        case .drawingLayerAdded(let e): return "drew on a new drawing layer \(label(e.layer.id))"
        case .strokeAdded(let e): return e.stroke.erase ? "erased on \(label(e.id))" : "drew on \(label(e.id))"
        case .layerChanged(let e):
            var parts = [String]()
            if e.transform != nil { parts.append("placement") }
            if let opacity = e.opacity { parts.append("opacity \(n(opacity))") }
            if e.shape != nil { parts.append("shape") }
            return "changed \(label(e.id)): " + parts.joined(separator: ", ")
        case .layerRemoved(let e): return "removed \(label(e.id))"
        case .layerReordered(let e): return "moved \(label(e.id)) to position \(e.index + 1)"
        case .canvasCropped(let e): return "cropped to \(e.width)x\(e.height) at \(e.x),\(e.y)"
        case .canvasExtended(let e):
            let sides = [("left", e.left), ("top", e.top), ("right", e.right), ("bottom", e.bottom)].filter { $0.1 > 0 }
            return sides.isEmpty ? "canvas background \(e.background.hex)" : "canvas grown " + sides.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
        case .canvasRotated(let e): return "rotated \(n(e.degrees))° (canvas \(e.width)x\(e.height))"
        case .canvasFlipped(let e): return e.axis == .h ? "flipped horizontally" : "flipped vertically"
        case .baseImageMoved(let e):
            let t = e.transform
            guard let before = placementBefore else {
                return "placed the picture alone at \(n(t.rotation))°" + (t.flipH ? ", mirrored h" : "") + (t.flipV ? ", mirrored v" : "")
            }
            if t.flipH != before.flipH { return "mirrored the picture alone left to right" }
            if t.flipV != before.flipV { return "mirrored the picture alone top to bottom" }
            var turn = (t.rotation - before.rotation).truncatingRemainder(dividingBy: 360)
            if turn <= -180 { turn += 360 } else if turn > 180 { turn -= 360 }
            if turn != 0 { return "turned the picture alone by \(n(turn))° (now at \(n(t.rotation))°)" }
            return "moved the picture alone"
        case .headMoved(let e): return "\(e.cause) to event \(moveTarget.map(String.init) ?? e.to.uuidString.lowercased())"
        case .filterApplied(let e): return "filtered \(PrintableText.escaped(e.filter.target.description)) with \(PrintableText.escaped(e.filter.filter)) (\(label(e.filter.id)))"
        case .filterParamsChanged(let e): return "changed \(label(e.id))'s parameters"
        case .filterRemoved(let e): return "removed filter \(label(e.id))"
        }
    }
}
