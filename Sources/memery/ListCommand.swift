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
            try printJSON(creations.map { item -> ListedCreation in
                guard let head = item.head else { return .damaged(["name": item.entry.name, "damaged": item.damage ?? ""]) }
                return .creation(CreationSummary(head).marked(item.entry, trashed: false))
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
                print("\(PrintableText.unquoted(entry.name))\tdamaged: `memery verify` says where, `memery salvage NEW_STORE` saves the rest")
                continue
            }
            let creation = head.state
            print("\(PrintableText.unquoted(creation.name))\t\(creation.width)x\(creation.height)\t\(creation.layers.count) layer(s)\t\(head.streamVersion) event(s)\(entry.favorite ? "\t★" : "")")
        }
        if damaged { throw ExitCode(3) }
    }
}

/// One creation of `list --json`: its summary, or its name and the damage that hides the rest.
enum ListedCreation: Encodable {
    case creation(CreationSummary)
    case damaged([String: String])

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .creation(let answer): try answer.encode(to: encoder)
        case .damaged(let fields): try fields.encode(to: encoder)
        }
    }
}
