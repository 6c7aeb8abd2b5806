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
        // A damaged creation is listed as damaged; the others as ever (exit 3 after them all).
        let creations = try shown.map { entry -> (entry: Gallery.Entry, head: CreationHead?, damage: String?) in
            do {
                return (entry, try workspace.head(of: entry), nil)
            } catch let error as MemeryError where error.kind == .damagedStore {
                return (entry, nil, error.message)
            }
        }
        let damaged = creations.contains { $0.damage != nil }
        if json {
            try printJSON(creations.map { item -> [String: Any] in
                guard let head = item.head else { return ["name": item.entry.name, "damaged": item.damage ?? ""] }
                var summary = JSONShapes.summary(head)
                summary["favorite"] = item.entry.favorite
                return summary
            })
            if damaged { throw ExitCode(3) }
            return
        }
        if creations.isEmpty {
            print(favorites ? "no favourites yet: `memery favorite NAME` marks one" : "no creations yet: `memery new NAME --image FILE` makes one")
            return
        }
        for (entry, head, _) in creations {
            guard let head else {
                print("\(entry.name)\tdamaged: `memery verify` says where, `memery salvage NEW_STORE` saves the rest")
                continue
            }
            let creation = head.state
            print("\(creation.name)\t\(creation.width)x\(creation.height)\t\(creation.layers.count) layer(s)\t\(head.streamVersion) event(s)\(entry.favorite ? "\t★" : "")")
        }
        if damaged { throw ExitCode(3) }
    }
}
