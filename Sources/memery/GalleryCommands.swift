import ArgumentParser
import Foundation
import Memery

struct RenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a creation (names stay unique, ignoring case).")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String
    @Argument(help: "Its new name.") var newName: String

    @OptionGroup var output: ResultOptions

    func run() throws {
        let result = try storeOptions.perform(.rename(to: newName), on: name)
        try output.report(result) { print(result.creation ?? newName) }
    }
}

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Move a creation to the trash; `memery restore` brings it back.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String

    @OptionGroup var output: ResultOptions

    func run() throws {
        try output.report(try storeOptions.perform(.delete, on: name)) {}
    }
}

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Bring a creation back from the trash.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String

    @OptionGroup var output: ResultOptions

    func run() throws {
        try output.report(try storeOptions.perform(.restore, on: name)) {}
    }
}

struct TrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trash", abstract: "List the creations in the trash.")
    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let trash = try storeOptions.open().gallery().trash
        if json {
            try printJSON(trash.map { ["name": $0.name, "id": $0.id.uuidString.lowercased()] })
        } else if trash.isEmpty {
            print("the trash is empty")
        } else {
            trash.forEach { print(PrintableText.unquoted($0.name)) }
        }
    }
}

struct PurgeCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove a creation for good: its whole history, its name, and the images nothing else uses.",
        discussion: "This cannot be undone. It is the one command that takes data out of the store.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String
    @Flag(help: "Confirm: this cannot be undone.") var yes = false
    @OptionGroup var result: ResultOptions

    func checkArguments() throws {
        if !yes { throw ValidationError("purging cannot be undone: add --yes to confirm") }
    }

    func run() throws {
        let report = try storeOptions.open().purge(name)
        try result.report(PurgeAnswer(creation: name, events: report.events, images: report.images, imageBytes: report.imageBytes)) {
            print("purged \"\(name)\": \(report.events) events, \(report.images) images (\(report.imageBytes) bytes)")
        }
    }
}

struct FavoriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "favorite", abstract: "Mark a creation as a favourite.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String

    @OptionGroup var output: ResultOptions
    func run() throws { try output.report(try storeOptions.perform(.favorite(true), on: name)) {} }
}

struct UnfavoriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unfavorite", abstract: "Unmark a favourite.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String

    @OptionGroup var output: ResultOptions
    func run() throws { try output.report(try storeOptions.perform(.favorite(false), on: name)) {} }
}

struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Put a creation at a position in the gallery (1 first, as `memery list` shows them).")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String
    @Option(parsing: .unconditional, help: "The position, 1 first.") var to: Int

    @OptionGroup var output: ResultOptions
    func run() throws { try output.report(try storeOptions.perform(.move(to: to), on: name)) {} }
}

struct RandomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "random", abstract: "Print the name of a creation picked at random.")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    func run() throws {
        // Uniform over the gallery: a new process has no "current" creation to avoid.
        guard let pick = try storeOptions.open().gallery().entries.randomElement() else { throw InputError("the gallery is empty: `memery new NAME --image FILE` makes a creation") }
        try output.report(PickAnswer(name: pick.name, id: pick.id.uuidString.lowercased(), favorite: pick.favorite)) { print(pick.name) }
    }
}

/// What `purge --json` prints: what went for good.
struct PurgeAnswer: Encodable {
    var creation: String
    var events: Int
    var images: Int
    var imageBytes: Int
}

/// What `random --json` prints: the creation picked.
struct PickAnswer: Encodable {
    var name: String
    var id: String
    var favorite: Bool
}
