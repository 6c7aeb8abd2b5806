import Foundation
import MemeryCore
import MemeryStore

/// One event of a creation, described for people.
public struct HistoryEntry: Sendable {
    public var event: StoredEvent
    public var summary: String

    init(_ stored: StoredEvent, _ event: CreationEvent) {
        self.event = stored
        summary = Self.describe(event)
    }

    public static func describe(_ event: CreationEvent) -> String {
        func quoted(_ text: String) -> String {
            let short = text.count > 40 ? String(text.prefix(39)) + "…" : text
            return "\"\(short)\""
        }
        switch event {
        case .created(let e): return "created \(quoted(e.name))"
        case .baseImageImported(let e):
            return "imported \(e.image.sourceName ?? "an image") (\(e.image.format), \(e.image.width)x\(e.image.height))"
        case .textLayerAdded(let e): return "added \(e.layer.role) text \(e.layer.id) \(quoted(e.layer.text))"
        case .textLayerEdited(let e):
            var parts = [String]()
            if let text = e.text { parts.append("text \(quoted(text))") }
            if e.box != nil { parts.append("box") }
            if e.style != nil { parts.append("style") }
            return "edited \(e.id): " + parts.joined(separator: ", ")
        case .textLayerRemoved(let e): return "removed \(e.id)"
        case .headMoved(let e): return "\(e.cause) to event \(e.to)"
        }
    }
}
