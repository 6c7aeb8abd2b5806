public import Foundation
import MemeryCore
import MemeryStore

/// What `salvage` copied and what it left behind.
public struct SalvageReport: Sendable {
    public var events = 0
    public var pictures = 0
    /// Creations copied whole, by name.
    public var creations: [String] = []
    /// What was left behind: a creation (by name) or a stream, and why.
    public var leftBehind: [String] = []
}

/// Copying what damage left readable into a new store (`memery salvage`).
struct StoreSalvage: Sendable {
    let workspace: Workspace

    /// Copies everything readable into a new store at `directory`, as a sync would carry it
    /// (every event with its id, every picture it uses), leaving behind whole any creation
    /// that damage touched (a damaged record, or a picture that fails its hash): a history
    /// with a hole would replay as something that never was. This store is only read.
    func copy(into directory: URL) throws -> SalvageReport {
        let store = workspace.store
        let target = try Workspace(directory: directory)
        guard try target.lastSequence() == 0 else {
            throw MemeryError(.badInput, "\(directory.path) already holds a store: salvage into a new, empty folder")
        }
        var report = SalvageReport()
        var damaged = [UUID: String]()  // stream: why
        for problem in try store.verify().problems {
            if let stream = problem.stream { damaged[stream] = damaged[stream] ?? problem.description }
        }
        // A picture that fails its hash takes the streams that use it along.
        try store.forEachReadableEvent(damaged: { _, _, _ in }) { event in
            guard !event.isPurged, EventAdmission.namesPicturesItUses(event.type) else { return true }
            for hash in EventAdmission.pictures(in: event.payload) where (try? store.blob(hash)) == nil {
                damaged[event.stream] = damaged[event.stream] ?? "picture \(hash.prefix(12))… is missing or damaged"
            }
            return true
        }
        // A creation goes whole or not at all: its history and its gallery entry together.
        let gallery = (try? workspace.galleryIndex.replay(passingDamage: true).all) ?? []
        var leaving = Set<UUID>()
        for (stream, why) in damaged {
            if let entry = gallery.first(where: { $0.id == stream || GalleryIndex.membershipStream(of: $0.id) == stream }) {
                leaving.formUnion([entry.id, GalleryIndex.membershipStream(of: entry.id)])
                report.leftBehind.append("\"\(entry.name)\": \(why)")
            } else {
                leaving.insert(stream)
                report.leftBehind.append("\(WellKnownStreams.name(of: stream) ?? "stream " + stream.uuidString.lowercased()): \(why)")
            }
        }
        var after: UInt64 = 0
        while true {
            let page = try workspace.sync.outgoing(after: after, limit: 2_000, leaving: leaving)
            let result = try target.sync.incoming(page.events) { hash in
                guard let bytes = try store.blob(hash) else { throw StoreError.missingBlob(hash: hash) }
                return bytes
            }
            report.events += result.stored
            after = page.through
            if !page.more { break }
        }
        report.pictures = try target.verify().blobs
        report.creations = try target.gallery().all.map(\.name)
        report.leftBehind.sort()
        return report
    }
}
