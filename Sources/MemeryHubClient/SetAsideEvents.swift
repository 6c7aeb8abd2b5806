import Foundation
public import Memery
import MemeryCore
public import MemeryHubProtocol

/// Events from the hub that this store could not take (EventAdmission): never in its log,
/// where one would make its creation unreadable; kept beside it in `hub/set-aside.json`,
/// so that `memery verify` names them and a newer memery takes them at its next sync.
/// The appends they belong to wait with them: an edit is stored whole or not at all.
public struct SetAsideEvents: Codable, Sendable {
    public struct Entry: Codable, Sendable, Equatable {
        public var event: HubEvent
        /// What is wrong with the append's first unreadable event.
        public var reason: String
        /// True when the event looks written by a newer memery (kept until this one can read it).
        public var newer: Bool
        /// The creation's name when the store knew it.
        public var creation: String?
    }

    public var entries: [Entry] = []

    static func file(_ workspace: Workspace) -> URL { HubLogin.folder(workspace).appendingPathComponent("set-aside.json") }

    public static func load(_ workspace: Workspace) -> SetAsideEvents {
        guard let data = try? Data(contentsOf: file(workspace)) else { return SetAsideEvents() }
        return (try? JSONDecoder().decode(SetAsideEvents.self, from: data)) ?? SetAsideEvents()
    }

    func save(_ workspace: Workspace) throws {
        if entries.isEmpty {
            try? FileManager.default.removeItem(at: Self.file(workspace))
            return
        }
        try PrivateFile.write(try JSONEncoder().encode(self), to: Self.file(workspace))
    }

    /// Splits a page into the appends that can be stored and those set aside (each whole).
    public static func sort(_ events: [HubEvent], in workspace: Workspace) -> (readable: [HubEvent], setAside: [Entry]) {
        var readable = [HubEvent](), setAside = [Entry]()
        // Read from the gallery's stream once per page, and only if an append needs it.
        var purged: Set<UUID>?
        func isPurged(_ id: UUID) -> Bool {
            if purged == nil { purged = (try? workspace.sync.purgedStreams()) ?? [] }
            return purged?.contains(id) == true
        }
        var index = events.startIndex
        while index < events.endIndex {
            var end = index
            while end < events.endIndex, events[end].batch == events[index].batch { end += 1 }
            let append = events[index..<end]
            index = end
            var verdict = EventAdmission.Verdict.readable
            for event in append {
                verdict = EventAdmission.judge(type: event.type, schemaVersion: event.schemaVersion, payload: Data(event.payload.utf8),
                                               time: event.time)
                if verdict != .readable { break }
            }
            // (A creation purged here has no history either: its edits are dropped when stored.)
            if verdict == .readable, let ghost = Self.creationWithoutHistory(append, in: workspace), !isPurged(ghost) {
                // A name for a creation whose history is neither here nor in the same append
                // (where a store always writes the two): it would hold the name for nothing.
                // Waits, and is taken once the history is here.
                verdict = .unreadable("it names creation \(ghost.uuidString.lowercased()) in the gallery without that creation's history")
            }
            switch verdict {
            case .readable:
                readable += append
            case .newer(let why), .unreadable(let why):
                let newer = if case .newer = verdict { true } else { false }
                let name = append.lazy.compactMap { try? workspace.sync.creationName(ofStream: $0.stream) }.first
                setAside += append.map { Entry(event: $0, reason: why, newer: newer, creation: name) }
            }
        }
        return (readable, setAside)
    }

    /// The creation an append's gallery entry or rename names when its history is neither in
    /// the append nor in the store.
    static func creationWithoutHistory(_ append: ArraySlice<HubEvent>, in workspace: Workspace) -> UUID? {
        let streams = Set(append.map(\.stream))
        for event in append where event.type == "GalleryEntryAdded" || event.type == "CreationRenamed" {
            let named: UUID?
            switch try? GalleryEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: Data(event.payload.utf8)) {
            case .added(let entry): named = entry.id
            case .renamed(let id, _): named = id
            default: named = nil
            }
            if let named, !streams.contains(named), (try? workspace.sync.hasHistory(named)) != true { return named }
        }
        return nil
    }

    /// One line per creation (and kind) for people: how many edits wait, and why. Names are
    /// looked up now: a creation may have arrived in the same page as its unreadable edit.
    public func lines(in workspace: Workspace) -> [String] {
        var seen = [String: (count: Int, reason: String)](), order = [String]()
        for entry in entries where entry.event.batch == entry.event.id {
            let name = entry.creation ?? (try? workspace.sync.creationName(ofStream: entry.event.stream)) ?? nil
            let creation = name.map { "\"\($0)\"" } ?? "a creation this machine does not have (stream \(entry.event.stream.uuidString.lowercased().prefix(8)))"
            let key = (entry.newer ? "newer\t" : "unreadable\t") + creation
            if seen[key] == nil { order.append(key) }
            seen[key, default: (0, entry.reason)].count += 1
        }
        return order.map { key in
            let (count, reason) = seen[key]!
            let parts = key.split(separator: "\t", maxSplits: 1)
            let edits = "\(count) edit\(count == 1 ? "" : "s") of \(parts[1])"
            return parts[0] == "newer"
                ? "\(edits) \(count == 1 ? "was" : "were") made with a newer memery (\(reason)): update memery to see \(count == 1 ? "it" : "them")"
                : "\(edits) from the hub cannot be read (\(reason)): set aside, the creation opens without \(count == 1 ? "it" : "them")"
        }
    }
}
