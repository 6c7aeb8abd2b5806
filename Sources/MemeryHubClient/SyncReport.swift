import Foundation

/// What a sync moved, up and down: the counts `memery sync` shows and `--json` prints.
public struct SyncReport: Codable, Sendable, Equatable {
    public var creationsUp = 0
    public var creationsDown = 0
    public var eventsUp = 0
    public var eventsDown = 0
    public var picturesUp = 0
    public var picturesDown = 0
    public var bytesUp = 0
    public var bytesDown = 0
    /// Names two machines used for different creations: the later creation's new name.
    public var renamed: [Renamed] = []
    /// Creations another machine purged, purged here too.
    public var purged = 0
    /// Their names, and how many edits each had here.
    public var purgedCreations: [Purged] = []
    /// Edits another machine made to creations purged here (offline, before it knew): dropped.
    public var dropped = 0
    /// Names given here that lost to a later rename on another machine.
    public var lostRenames: [Renamed] = []

    public struct Purged: Codable, Sendable, Equatable {
        public var name: String
        public var edits: Int
    }
    /// Creations edited here and on another machine: both lines are now branches.
    public var branched: [String] = []
    /// True when the hub lacked what this store had sent it (restored from an older backup)
    /// and the store sent again what came after the last point both held.
    public var resent = false
    /// How many events that sending again took (those the hub still had count too).
    public var eventsResent = 0
    /// How many minutes ahead of the hub's clock this machine's edits were timed, when the
    /// hub noticed: this machine's clock is off, and its edits sort after others' they follow.
    public var clockAheadMinutes: Int?
    /// Edits from the hub this store holds apart (unreadable, or from a newer memery): one
    /// line per creation (SetAsideEvents.lines).
    public var setAside: [String] = []
    /// The hub position this store has pulled through.
    public var position: Int64 = 0

    public struct Renamed: Codable, Sendable, Equatable {
        public var from: String
        public var to: String
    }

    public init() {}

    /// One line for people.
    public var summary: String {
        func size(_ bytes: Int) -> String {
            bytes < 1_000 ? "\(bytes) B" : bytes < 1_000_000 ? String(format: "%.1f kB", Double(bytes) / 1e3) : String(format: "%.1f MB", Double(bytes) / 1e6)
        }
        var text = "synced: up \(creationsUp) creation\(creationsUp == 1 ? "" : "s"), \(eventsUp) event\(eventsUp == 1 ? "" : "s"), \(picturesUp) picture\(picturesUp == 1 ? "" : "s") (\(size(bytesUp))); "
            + "down \(creationsDown) creation\(creationsDown == 1 ? "" : "s"), \(eventsDown) event\(eventsDown == 1 ? "" : "s"), \(picturesDown) picture\(picturesDown == 1 ? "" : "s") (\(size(bytesDown)))"
        for creation in purgedCreations {
            text += "; purged \"\(creation.name)\" as another machine did (its \(creation.edits) edit\(creation.edits == 1 ? "" : "s") here with it)"
        }
        if dropped > 0 {
            text += "; dropped \(dropped) edit\(dropped == 1 ? "" : "s") another machine made to a creation purged here"
        }
        if let minutes = clockAheadMinutes {
            text += "; this machine's clock is about \(minutes) minute\(minutes == 1 ? "" : "s") ahead of the hub's: set it right (timedatectl), or its edits sort after later ones"
        }
        if resent {
            text += "; the hub had lost edits this store sent it (restored from a backup?), so it sent again the \(eventsResent) event\(eventsResent == 1 ? "" : "s") after the last point both held"
        }
        return text
    }
}
