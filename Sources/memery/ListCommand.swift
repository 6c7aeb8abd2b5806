import ArgumentParser
import Foundation
import Memery

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the creations in the gallery.")

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(help: "Only the favourites.")
    var favorites = false

    func run() throws {
        let workspace = try storeOptions.open()
        let gallery = try workspace.gallery()
        let shown = favorites ? gallery.favourites : gallery.entries
        let creations = try shown.map { (entry: $0, head: try workspace.head(of: $0)) }
        if json {
            try printJSON(creations.map { item in
                var summary = JSONShapes.summary(item.head)
                summary["favorite"] = item.entry.favorite
                return summary
            })
            return
        }
        if creations.isEmpty {
            print(favorites ? "no favourites yet: `memery favorite NAME` marks one" : "no creations yet: `memery new NAME --image FILE` makes one")
            return
        }
        for (entry, head) in creations {
            let creation = head.state
            print("\(creation.name)\t\(creation.width)x\(creation.height)\t\(creation.layers.count) layer(s)\t\(head.streamVersion) event(s)\(entry.favorite ? "\t★" : "")")
        }
    }
}
