import ArgumentParser
import Foundation
import Memery

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the creations in the gallery.")

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        let workspace = try storeOptions.open()
        let creations = try workspace.gallery().entries.map { try workspace.history(of: $0.name) }
        if json {
            try printJSON(creations.map(Describe.summary))
            return
        }
        if creations.isEmpty {
            print("no creations yet: `memery new NAME --image FILE` makes one")
            return
        }
        for history in creations {
            let creation = history.state
            print("\(creation.name)\t\(creation.width)x\(creation.height)\t\(creation.textLayers.count) layer(s)\t\(history.streamVersion) event(s)")
        }
    }
}
