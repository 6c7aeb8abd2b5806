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
    /// The first problem met, or nil when the store is clean.
    public var problem: String?
    /// The first bad log sequence, when the problem is in the log or its index.
    public var badSequence: UInt64?

    init(_ report: VerifyReport) {
        formatVersion = report.formatVersion; events = report.events; purged = report.purged; streams = report.streams
        blobs = report.blobs; blobBytes = report.blobBytes; names = report.claims
        problem = report.problem?.description; badSequence = report.problem?.sequence
    }

    public var isClean: Bool { problem == nil }
}

/// What a purge took out of the store.
public struct PurgeSummary: Sendable, Equatable {
    public var events: Int
    public var images: Int
    public var imageBytes: Int

    init(_ report: PurgeReport) { events = report.events; images = report.blobs; imageBytes = report.blobBytes }
}
