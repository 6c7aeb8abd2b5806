import ArgumentParser
import Foundation
import Memery

/// Prints where the head is after a move: its event number and what that edit did.
private func report(_ result: EditResult, _ output: ResultOptions) throws {
    try output.report(result) {
        if let head = result.head { print("at v\(head.version): \(head.summary)") }
    }
}

struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Step back one edit (or --steps N); the undone edits stay in the history.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(parsing: .unconditional, help: "How many edits to step back.")
    var steps = 1

    func run() throws {
        try report(try storeOptions.perform(.undo(steps: steps), on: name), output)
    }
}

struct RedoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo", abstract: "Step forward again, along the newest branch or --branch K.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(parsing: .unconditional, help: "Which branch to follow where edits were made after an undo (1 = the oldest).")
    var branch: Int?

    func run() throws {
        try report(try storeOptions.perform(.redo(branch: branch), on: name), output)
    }
}

struct CheckoutCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "checkout",
        abstract: "Go to the state right after an event, or as it was at a time.",
        discussion: "--at takes 45s, 10m, 2h, 3d or 1w (ago), or a date and time: 2026-11-21T10:00:00Z, 2026-11-21 10:00 (local time, as is any time without a zone) or 2026-11-21 (local midnight). --event takes the edits `memery history` lists. The checkout is itself an event: later edits branch from here, and nothing is lost.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Argument(help: ArgumentHelp("Where to go, without naming the option: an event (v12 or 12) or a time (10m, an ISO-8601 instant).",
                                 valueName: "event-or-time"))
    var target: String?

    @Option(parsing: .unconditional, help: "The event number, as `memery history` shows it (v12 or 12).")
    var event: String?

    @Option(parsing: .unconditional, help: "A time: how long ago (10m, 2h, 3d), or a date and time (2026-11-21 10:00 local, or with a zone).")
    var at: String?

    func checkArguments() throws {
        if [target, event, at].compactMap({ $0 }).count != 1 { throw ValidationError("give one of an event (v12), --event N or --at TIME") }
    }

    func run() throws {
        // A bare `v12` or `12` is an event; anything else a time.
        let isEvent = target.map { text in !text.isEmpty && (text.hasPrefix("v") ? text.dropFirst() : Substring(text)).allSatisfy(\.isNumber) } ?? false
        let event = isEvent ? target : event, at = isEvent ? at : (target ?? at)
        if let event {
            let digits = event.hasPrefix("v") ? String(event.dropFirst()) : event
            guard let number = UInt64(digits) else { throw InputError("\"\(event)\" is not an event number: use a number from `memery history \(name)`") }
            let result = try storeOptions.perform(.checkout(.event(number)), on: name)
            try report(result, output)
            // One edit may store several events: say where the asked one landed.
            if let head = result.head, head.version != number, !output.json {
                print("note: v\(number) is part of the edit v\(head.version), which stores several events")
            }
        } else if let at {
            try report(try storeOptions.perform(.checkout(.time(at)), on: name), output)
        }
    }
}
