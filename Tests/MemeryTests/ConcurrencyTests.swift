import Foundation
import MemeryLocks
@testable import Memery
import MemeryCore
@testable import MemeryStore
import MemeryTestSupport
import Testing

/// One workspace shared by many threads and tasks at once: writers take turns, readers run
/// beside them, and every acknowledged edit is in the store afterwards. `make tsan` runs
/// this suite under ThreadSanitizer.
@Suite struct ConcurrencyTests {
    /// What a writer was told: the edit, the creation, and the version and sequence it got.
    struct Acknowledged: Sendable {
        var creation: String
        var edit: Edit
        var version: UInt64
        var sequence: UInt64
    }

    /// Two writers (one through the async API, one on a thread of its own through the
    /// synchronous one) edit, undo, redo and filter two creations, one of them shared; eight
    /// readers open heads, the gallery, histories and pictures meanwhile. Afterwards every
    /// acknowledged edit is where its answer said, and no reader saw a head go backwards.
    @Test func eightReadersAndTwoWritersLoseNothing() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        for name in ["a", "b"] { try workspace.create(name: name, canvasWidth: 64, height: 48, background: .white) }
        let filters = workspace.compositor.filters.filter("org.memery.grayscale") != nil
        let editsPerWriter = 60

        @Sendable func edit(_ writer: Int, _ n: Int) -> (String, Edit) {
            let creation = n % 3 == 0 ? "a" : (writer == 0 ? "a" : "b")  // "a" is shared
            switch n % 10 {
            case 4: return (creation, .undo(steps: 1))
            case 5: return (creation, .redo(branch: nil))
            case 7 where filters: return (creation, .applyFilter(filter: "org.memery.grayscale", settings: [], layer: nil, canvas: true))
            default: return (creation, .addText(text: "w\(writer)-\(n)", box: nil, style: .init()))
            }
        }
        @Sendable func record(_ creation: String, _ edit: Edit, _ result: EditResult) -> Acknowledged? {
            guard let version = result.version, let sequence = result.sequence else { return nil }
            return Acknowledged(creation: creation, edit: edit, version: version, sequence: sequence)
        }

        async let asyncWriter: [Acknowledged] = {
            var acknowledged = [Acknowledged]()
            for n in 0..<editsPerWriter {
                let (creation, edit) = edit(0, n)
                do {
                    if let ack = record(creation, edit, try await workspace.perform(edit, on: creation)) { acknowledged.append(ack) }
                } catch is DomainError {}  // nothing to undo or redo: refused, nothing stored
            }
            return acknowledged
        }()
        async let threadWriter: [Acknowledged] = withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    var acknowledged = [Acknowledged]()
                    let runner = EditRunner(workspace: workspace)
                    for n in 0..<editsPerWriter {
                        let (creation, edit) = edit(1, n)
                        do {
                            if let ack = record(creation, edit, try runner.perform(edit, on: creation)) { acknowledged.append(ack) }
                        } catch is DomainError {}
                    }
                    return acknowledged
                })
            }.start()
        }
        let done = Flag()
        let readers = (0..<8).map { reader in
            Task.detached { () async throws -> Int in
                var reads = 0
                var seen = [String: UInt64]()
                while !done.isSet {
                    let name = reader % 2 == 0 ? "a" : "b"
                    switch reads % 4 {
                    case 0:
                        let version = try workspace.head(of: name).streamVersion
                        #expect(version >= seen[name, default: 0], "reader \(reader) saw \(name) go back")
                        seen[name] = version
                    case 1:
                        let gallery: Gallery = try await workspace.gallery()
                        #expect(gallery.count == 2)
                    case 2: let _: CreationHistory = try await workspace.history(of: name)
                    default:
                        let png = try await workspace.picture(of: name, width: 32, format: .png).data
                        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
                    }
                    reads += 1
                }
                return reads
            }
        }
        let acknowledged = try await asyncWriter + (try await threadWriter)
        done.set()
        var reads = 0
        for reader in readers { reads += try await reader.value }
        #expect(reads >= 8, "every reader ran")
        #expect(acknowledged.contains { if case .undo = $0.edit { true } else { false } })
        #expect(acknowledged.contains { if case .redo = $0.edit { true } else { false } })
        #expect(!filters || acknowledged.contains { if case .applyFilter = $0.edit { true } else { false } })

        // Every acknowledged edit is in its creation's history, at the version it was told.
        let sequences = Set(acknowledged.map(\.sequence))
        #expect(sequences.count == acknowledged.count, "no two edits were acknowledged with the same sequence")
        for name in ["a", "b"] {
            let history = try await workspace.history(of: name)
            let mine = acknowledged.filter { $0.creation == name }
            #expect(history.streamVersion == (mine.map(\.version).max() ?? 2), "\(name): nothing stored past the last answer")
            for ack in mine {
                switch ack.edit {
                case .undo, .redo:
                    #expect(history.batches.contains { $0.lastVersion == ack.version && $0.isMove }, "\(name) v\(ack.version)")
                default:
                    let node = try #require(history.node(version: ack.version), "\(name): edit at v\(ack.version) is in the tree")
                    if case .addText(let text, _, _) = ack.edit {
                        #expect(history.nodes[node].events.contains { event in
                            if case .textLayerAdded(let added) = event { return added.layer.text?.text == text }
                            return false
                        }, "\(name) v\(ack.version) holds \(text)")
                    }
                }
            }
            // What a fresh reader opens equals the full replay.
            #expect(try workspace.creations.readHead(history.id).head == CreationHead(history))
        }
        #expect(try workspace.verify().problem == nil)
    }

    /// Many threads open the same store at once: they share one LMDB environment (LMDB
    /// forbids opening one twice in a process), and all of them can write.
    @Test func oneEnvironmentPerStorePerProcess() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for n in 0..<8 {
                group.addTask {
                    let workspace = try Workspace(directory: dir.url)
                    try workspace.create(name: "c\(n)", canvasWidth: 8, height: 8, background: .white)
                    return "c\(n)"
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        let first = try Workspace(directory: dir.url), second = try Workspace(directory: dir.url)
        #expect(first.store.env === second.store.env)
        #expect(Set(try await first.gallery().entries.map(\.name)) == Set(names))
    }
}

/// A flag set once, read from many threads.
final class Flag: Sendable {
    private let value = Locked(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
