public import Foundation
import MemeryStore

/// What `verify` found, as the facade reports it.
public struct StoreCheck: Sendable, Equatable {
    public var formatVersion: Int
    public var events: Int
    /// Tombstones of purged events: their place in the log, nothing else.
    public var purged: Int
    public var streams: Int
    public var blobs: Int
    public var blobBytes: Int
    public var names: Int
    /// Every problem found, each once, naming the creation it is in where that is known.
    public var problems: [String]
    /// Problems past those listed (a store damaged all over).
    public var unlisted: Int
    /// The creations (by name) the problems are in.
    public var damagedCreations: [String]
    /// The first problem met, or nil when the store is clean.
    public var problem: String? { problems.first }
    /// The first bad log sequence, when the problem is in the log or its index.
    public var badSequence: UInt64?

    init(_ report: VerifyReport, name: (UUID) -> String?) {
        formatVersion = report.formatVersion; events = report.events; purged = report.purged; streams = report.streams
        blobs = report.blobs; blobBytes = report.blobBytes; names = report.claims
        badSequence = report.problem?.sequence
        unlisted = report.unlisted
        var damaged = [String]()
        problems = report.problems.map { problem in
            guard let stream = problem.stream, let creation = name(stream) else { return problem.description }
            if !damaged.contains(creation) { damaged.append(creation) }
            return "\(problem.description) (in \"\(creation)\")"
        }
        damagedCreations = damaged
    }

    public var isClean: Bool { problems.isEmpty }
}

/// What a purge took out of the store.
public struct PurgeSummary: Sendable, Equatable {
    public var events: Int
    public var images: Int
    public var imageBytes: Int

    init(_ report: PurgeReport) { events = report.events; images = report.blobs; imageBytes = report.blobBytes }
}
