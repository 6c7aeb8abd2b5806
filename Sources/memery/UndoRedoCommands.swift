import ArgumentParser
import Foundation
import Memery
import MemeryCore

/// Prints where the head is after a move: its event number and what that edit did.
func printHead(_ history: CreationHistory) {
    guard let head = history.head else { return }
    let node = history.nodes[head]
    print("at v\(node.version): \(HistoryTreeText.summary(node))")
}

struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Step back one edit (or --steps N); the undone edits stay in the history.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(help: "How many edits to step back.")
    var steps = 1

    func run() throws {
        printHead(try storeOptions.open().undo(name, steps: steps))
    }
}

struct RedoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo", abstract: "Step forward again, along the newest branch or --branch K.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(help: "Which branch to follow where edits were made after an undo (1 = the oldest).")
    var branch: Int?

    func run() throws {
        printHead(try storeOptions.open().redo(name, branch: branch))
    }
}

struct CheckoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout",
        abstract: "Go to the state right after an event, or as it was at a time.",
        discussion: "--at takes 45s, 10m, 2h, 3d or 1w (ago), or an ISO-8601 instant such as 2026-11-21T10:00:00Z. The checkout is itself an event: later edits branch from here, and nothing is lost.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(help: "The event number, as `memery history` shows it (v12 or 12).")
    var event: String?

    @Option(help: "A time: how long ago (10m, 2h, 3d) or an ISO-8601 instant.")
    var at: String?

    func validate() throws {
        if (event == nil) == (at == nil) { throw ValidationError("give either --event N or --at TIME") }
    }

    func run() throws {
        let workspace = try storeOptions.open()
        if let event {
            let digits = event.hasPrefix("v") ? String(event.dropFirst()) : event
            guard let number = UInt64(digits) else { throw InputError("\"\(event)\" is not an event number: use a number from `memery history \(name)`") }
            printHead(try workspace.checkout(name, event: number))
        } else if let at {
            printHead(try workspace.checkout(name, at: try PointInTime.parse(at, now: Date()), text: at))
        }
    }
}
