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

extension Workspace {
    /// Copies everything readable into a new store at `directory`, as a sync would carry it
    /// (every event with its id, every picture it uses), leaving behind whole any creation
    /// that damage touched (a damaged record, or a picture that fails its hash): a history
    /// with a hole would replay as something that never was. This store is only read.
    public func salvage(into directory: URL) throws -> SalvageReport {
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
        let gallery = (try? replayGalleryReadable()) ?? []
        var leaving = Set<UUID>()
        for (stream, why) in damaged {
            if let entry = gallery.first(where: { $0.id == stream || Self.membershipStream(of: $0.id) == stream }) {
                leaving.formUnion([entry.id, Self.membershipStream(of: entry.id)])
                report.leftBehind.append("\"\(entry.name)\": \(why)")
            } else {
                leaving.insert(stream)
                report.leftBehind.append("\(WellKnownStreams.name(of: stream) ?? "stream " + stream.uuidString.lowercased()): \(why)")
            }
        }
        var after: UInt64 = 0
        while true {
            let page = try outgoing(after: after, limit: 2_000, leaving: leaving)
            let result = try target.incoming(page.events) { hash in
                guard let bytes = try self.store.blob(hash) else { throw StoreError.missingBlob(hash: hash) }
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

    /// The gallery's entries from every readable record (damaged ones passed over).
    func replayGalleryReadable() throws -> [Gallery.Entry] {
        var events = [(GalleryEvent, GalleryStamp?)]()
        try store.forEachReadableEvent(damaged: { _, _, _ in }) { event in
            if GalleryEvent.types.contains(event.type), let decoded = try? EventCoding.galleryEvent(event) {
                events.append((decoded, event.galleryStamp))
            }
            return true
        }
        return Gallery.fold([], events)
    }
}
