import ArgumentParser
import Foundation
import Memery
import MemeryHubClient

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Push what this store has and the hub has not, and pull the rest.",
        discussion: """
        Everything travels: the gallery, the garage, templates and every creation's whole history. A sync that is \
        stopped resumes where it was; running it twice is harmless. Two machines that edited one creation offline \
        both end with both lines of edits as branches (`memery history`).
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("Only these creations, both ways (their histories and gallery entries); by default everything.",
                                 valueName: "name"))
    var names: [String] = []

    @Flag(help: "Print the counts as JSON.")
    var json = false

    @Flag(help: "Keep syncing until Ctrl-C: again whenever the hub has news or this store has an edit to send.")
    var watch = false

    /// Unbuffered: with --watch the process goes on, and each sync's lines must be out at once, piped or not.
    static func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    func run() async throws {
        let workspace = try storeOptions.open()
        let login = try requireLogin(workspace)
        let (json, watch, names) = (json, watch, names)
        if watch && !names.isEmpty { throw InputError("--watch syncs everything: give no names with it") }
        let terminal = isatty(STDOUT_FILENO) == 1 && !json
        var lastFailure: String?, retryWait = 5
        repeat {
            let syncer = try Syncer(workspace: workspace, login: login)
            if terminal {
                syncer.progress = { report in
                    FileHandle.standardOutput.write(Data(("\r\u{1B}[K" + report.summary.replacingOccurrences(of: "synced:", with: "syncing:")).utf8))
                }
            }
            let report: SyncReport
            do {
                report = try await names.isEmpty ? syncer.run() : syncer.run(only: names)
            } catch let error as HubClientError where watch && error.status == nil && !error.isBadInput {
                // No answer (the hub restarting, the network away): a watcher waits and tries again.
                // Said once, not every try; the waits grow to a minute.
                if terminal { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
                if error.description != lastFailure {
                    FileHandle.standardError.write(Data("error: \(error.description); trying again until it answers\n".utf8))
                    lastFailure = error.description
                }
                try await Task.sleep(for: .seconds(retryWait))
                retryWait = min(retryWait * 2, 60)
                continue
            }
            if lastFailure != nil { FileHandle.standardError.write(Data("the hub answers again\n".utf8)) }
            lastFailure = nil
            retryWait = 5
            if terminal { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                Self.say(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                for name in report.branched {
                    Self.say("note: \"\(name)\" was edited here and on another machine: both lines are kept as branches, the head on the edit made last (`memery history \(name)`)")
                }
                for renamed in report.renamed {
                    Self.say("note: two machines named different creations \"\(renamed.from)\": the later one is now \"\(renamed.to)\"")
                }
                for line in report.setAside { Self.say("note: " + line) }
                for lost in report.lostRenames {
                    Self.say("note: you renamed a creation \"\(lost.from)\", and another machine renamed it later: it is \"\(lost.to)\" (rename it again to keep yours)")
                }
                Self.say(report.summary)
            }
            if watch {
                let editsToPush = syncer.editsToPush()
                if try editsToPush() { continue }  // made while it synced: again at once
                try await HubWatch.wait(login, after: report.position, localEdits: editsToPush)
            }
        } while watch
    }
}
