import ArgumentParser
import Foundation
import Memery

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a creation: canvas size, layers with their ids and text, event count.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let workspace = try storeOptions.open()
        let head = try workspace.head(of: name)
        let creation = head.state
        let frames = try workspace.frameCount(of: creation)
        if json {
            try printJSON(CreationDetail(head, frames: frames))
            return
        }
        print("name:    \(creation.name)")
        print("id:      \(creation.id.uuidString.lowercased())")
        print("canvas:  \(creation.width)x\(creation.height)")
        if let base = creation.baseImage {
            let animated = frames > 1 ? ", animated: \(frames) frames" : ""
            print("image:   \(base.sourceName ?? "?") (\(base.format), sha256 \(base.blob.prefix(12))…\(animated))")
            if let origin = base.origin {
                print("from:    \(origin.url)")
                if origin.licence != nil || origin.author != nil { print("credit:  \(origin.credit)") }
            }
        } else if let canvas = creation.canvas {
            print("image:   none, background \(canvas.background)")
        }
        print("events:  \(head.streamVersion) (head at \(head.headVersion.map { "v\($0)" } ?? "-"))")
        print("layers:  \(creation.layers.isEmpty ? "none" : "\(creation.layers.count), bottom first")")
        for (index, layer) in creation.layers.enumerated() {
            print(Describe.line(layer, position: index + 1))
        }
        if !creation.filters.isEmpty {
            print("filters: \(creation.filters.count), in the order they apply")
            for (index, applied) in creation.filters.enumerated() {
                let missing = !FilterCatalog.isInstalled(applied.filter) ? "  (not installed)" : ""
                // As the installed plugin reads them: the names `filter set` takes.
                let (current, note) = FilterCatalog.currentParams(of: applied)
                let params = current.keys.sorted().map { "\($0)=\(current[$0]!)" }.joined(separator: " ")
                print("  \(index + 1)  \(applied.label)  \(applied.filter) on \(applied.target)  \(params)\(missing)\(note.map { "  (\($0))" } ?? "")")
            }
        }
    }
}
