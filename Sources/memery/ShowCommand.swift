import ArgumentParser
import Foundation
import Memery
import MemeryCore

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a creation: canvas size, layers with their ids and text, event count.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let history = try storeOptions.open().history(of: name)
        let creation = history.state
        if json {
            try printJSON(Describe.detail(history))
            return
        }
        print("name:    \(creation.name)")
        print("id:      \(creation.id.uuidString.lowercased())")
        print("canvas:  \(creation.width)x\(creation.height)")
        if let base = creation.baseImage {
            print("image:   \(base.sourceName ?? "?") (\(base.format), sha256 \(base.blob.prefix(12))…)")
        }
        let head = history.head.map { "v\(history.nodes[$0].version)" } ?? "-"
        print("events:  \(history.streamVersion) (head at \(head))")
        print("layers:  \(creation.textLayers.isEmpty ? "none" : String(creation.textLayers.count))")
        for layer in creation.textLayers {
            let style = layer.style
            print("  \(layer.id)  \(layer.role)  \"\(layer.text)\"  box \(layer.box)  \(style.font) up to \(Describe.number(style.maxSize))px \(style.fill)/\(style.outline) \(style.align)\(style.uppercase ? "" : " no-caps")")
        }
    }
}
