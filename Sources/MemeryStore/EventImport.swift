import Foundation

/// Appends that come from another store (a sync's pull): each keeps the ids, parents and
/// time its writer gave it, and the appends of one call land in one transaction, so a page
/// of a pull is stored whole or not at all.
public struct ImportedAppend: Sendable {
    public var writes: [EventStore.StreamWrite]
    /// The time the writer appended them.
    public var time: Date
    /// Pictures the events use: new bytes, and hashes the store holds already.
    public var blobs: [Data]
    public var blobRefs: [String]
    /// The stream that references the pictures and holds the claims.
    public var owner: UUID
    /// Claims to take when nobody else holds them (a name another creation holds here is
    /// left to the caller, who is told); claims of `owner`'s to let go.
    public var claimIfFree: [String]
    public var release: [String]
    public init(writes: [EventStore.StreamWrite], time: Date, blobs: [Data] = [], blobRefs: [String] = [], owner: UUID,
                claimIfFree: [String] = [], release: [String] = []) {
        self.writes = writes; self.time = time; self.blobs = blobs; self.blobRefs = blobRefs; self.owner = owner
        self.claimIfFree = claimIfFree; self.release = release
    }
}

public struct ImportReport: Sendable, Equatable {
    /// Events stored now.
    public var stored: [StoredEvent] = []
    /// Events this store had already (sent again, or its own coming back): nothing written.
    public var skipped = 0
    /// Claims another stream held, each with the stream that wanted it.
    public var claimsRefused: [(claim: String, wanted: UUID)] = []

    public static func == (a: ImportReport, b: ImportReport) -> Bool {
        a.stored == b.stored && a.skipped == b.skipped && a.claimsRefused.map(\.claim) == b.claimsRefused.map(\.claim)
            && a.claimsRefused.map(\.wanted) == b.claimsRefused.map(\.wanted)
    }
}

extension EventStore {
    /// Stores `appends` in one transaction. A stream write whose events are all stored
    /// already (here or purged here) stores nothing, so importing twice is harmless; appends
    /// go at each stream's end whatever its version, since the other store decided them
    /// against its own.
    public func importAppends(_ appends: [ImportedAppend]) throws -> ImportReport {
        try write { txn in
            var report = ImportReport()
            for append in appends {
                var writes = [StreamWrite]()
                for write in append.writes {
                    var fresh = write
                    fresh.expectedVersion = nil
                    fresh.events = try write.events.filter { try txn.get(ids, KeyEncoding.uuid($0.id)) == nil }
                    report.skipped += write.events.count - fresh.events.count
                    if !fresh.events.isEmpty { writes.append(fresh) }
                }
                guard !writes.isEmpty else { continue }
                var claims = [String]()
                for key in append.claimIfFree {
                    if let holder = try txn.get(self.claims, Array(key.utf8)), let holderID = KeyEncoding.uuid(holder), holderID != append.owner {
                        report.claimsRefused.append((key, append.owner))
                    } else {
                        claims.append(key)
                    }
                }
                report.stored += try self.append(writes, blobs: append.blobs, blobRefs: append.blobRefs, claim: claims, release: append.release,
                                                 owner: append.owner, now: append.time, in: txn)
            }
            return report
        }
    }

    /// Lets a claim go if `owner` holds it (a name a creation no longer has); true if it did.
    @discardableResult
    public func releaseClaim(_ key: String, heldBy owner: UUID) throws -> Bool {
        try write { txn in
            guard let holder = try txn.get(claims, Array(key.utf8)), KeyEncoding.uuid(holder) == owner else { return false }
            return try txn.delete(claims, Array(key.utf8))
        }
    }

    /// Takes a claim for `owner` outside any append (a name settled after a sync); false
    /// when another stream holds it.
    @discardableResult
    public func takeClaim(_ key: String, for owner: UUID) throws -> Bool {
        try write { txn in
            if let holder = try txn.get(claims, Array(key.utf8)), let holderID = KeyEncoding.uuid(holder) { return holderID == owner }
            try txn.put(claims, Array(key.utf8), KeyEncoding.uuid(owner))
            return true
        }
    }
}
