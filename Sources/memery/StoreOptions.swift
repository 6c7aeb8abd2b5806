import ArgumentParser
import Foundation
import Memery

/// `--store DIR`, shared by every command.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "The store directory.",
        discussion: "Defaults to $MEMERY_STORE, else $XDG_DATA_HOME/memery, else ~/.local/share/memery.",
        valueName: "dir"))
    var store: String?

    func open() throws -> Workspace {
        // MEMERY_MAP_SIZE (bytes) starts a store's map small, so tests can make it grow.
        let mapSize = ProcessInfo.processInfo.environment["MEMERY_MAP_SIZE"].flatMap(Int.init) ?? Workspace.defaultMapSize
        let directory = StoreLocation.resolve(explicit: store)
        let workspace = try Workspace(directory: directory, mapSize: mapSize)
        if let notice = workspace.migrationNotice { FileHandle.standardError.write(Data("memery: \(notice)\n".utf8)) }
        return workspace
    }
}
