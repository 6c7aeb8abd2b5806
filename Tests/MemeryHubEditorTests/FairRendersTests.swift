import Foundation
import Hummingbird
import NIOCore
import Testing
@testable import MemeryHubEditor

/// Renders that run until the test lets each go, and the order they started in.
actor Stage {
    private(set) var started: [String] = []
    private var held: [String: CheckedContinuation<Void, Never>] = [:]
    private var released: Set<String> = []

    func render(_ name: String) async {
        started.append(name)
        guard !released.contains(name) else { return }
        await withCheckedContinuation { held[name] = $0 }
    }

    func release(_ name: String) {
        released.insert(name)
        held.removeValue(forKey: name)?.resume()
    }

    /// Waits until `names` have all started. No clock: on a loaded machine (CI runs suites
    /// side by side, and blocking ones hold Swift's few cooperative threads for minutes) a
    /// deadline fails a correct queue; a queue that never starts them hangs the test, which
    /// its time limit ends.
    func waitFor(_ names: String...) async throws {
        while !Set(names).isSubset(of: started) { try await Task.sleep(for: .milliseconds(5)) }
    }
}

func waitQueued(_ renders: FairRenders, _ count: Int) async throws {
    while await renders.queued != count { try await Task.sleep(for: .milliseconds(5)) }
}

@Suite(.timeLimit(.minutes(10))) struct FairRendersTests {
    @Test func onePersonsRendersWaitBehindEachOtherNotInFrontOfAnothers() async throws {
        let renders = FairRenders(slots: 2), stage = Stage()
        let first = Task { try await renders.run(for: 1) { await stage.render("A1") } }
        try await stage.waitFor("A1")
        // Three more exports from the same person, asked for while the first runs.
        let more = (2...4).map { number in Task { try await renders.run(for: 1) { await stage.render("A\(number)") } } }
        try await waitQueued(renders, 3)
        let other = Task { try await renders.run(for: 2) { await stage.render("B1") } }
        try await stage.waitFor("B1")
        #expect(await stage.started == ["A1", "B1"])
        await stage.release("B1")
        try await other.value
        // B's render ended and a slot is free, but A's next waits for A's first.
        #expect(await renders.queued == 3)
        #expect(await stage.started == ["A1", "B1"])
        for number in 1...4 { await stage.release("A\(number)") }
        try await first.value
        for task in more { try await task.value }
        #expect(await stage.started == ["A1", "B1", "A2", "A3", "A4"])
    }

    @Test func noMoreThanTheSlotsRunAndWaitingPeopleAreServedInTurn() async throws {
        let renders = FairRenders(slots: 2), stage = Stage()
        let running = [Task { try await renders.run(for: 1) { await stage.render("A1") } },
                       Task { try await renders.run(for: 2) { await stage.render("B1") } }]
        try await stage.waitFor("A1", "B1")
        // C asks first, then A again, then D: each is served in the order they asked.
        let c = Task { try await renders.run(for: 3) { await stage.render("C1") } }
        try await waitQueued(renders, 1)
        let a = Task { try await renders.run(for: 1) { await stage.render("A2") } }
        try await waitQueued(renders, 2)
        let d = Task { try await renders.run(for: 4) { await stage.render("D1") } }
        try await waitQueued(renders, 3)
        #expect(await stage.started.count == 2)
        await stage.release("B1")
        try await stage.waitFor("C1")
        #expect(await stage.started == ["A1", "B1", "C1"])
        await stage.release("A1")
        try await stage.waitFor("A2")
        #expect(await stage.started == ["A1", "B1", "C1", "A2"])
        await stage.release("C1")
        try await stage.waitFor("D1")
        for name in ["A2", "D1"] { await stage.release(name) }
        for task in running + [c, a, d] { try await task.value }
    }

    /// The routes that render, however the path is written (the router drops empty parts).
    @Test func rendersAreKnownByTheirRouteNotTheirSpelling() {
        func request(_ method: HTTPRequest.Method, _ path: String, type: String? = nil) -> Request {
            var head = HTTPRequest(method: method, scheme: "http", authority: "hub", path: path)
            if let type { head.headerFields[.contentType] = type }
            return Request(head: head, body: .init(buffer: ByteBuffer()))
        }
        for path in ["/api/creations/cat/render", "/api/creations/cat/export/", "//api/creations/cat//preview", "/api/creations/cat/text-preview", "/api/garage/abc/picture",
                     "/api/stickers/star/picture"] {
            #expect(FairRenders.renders(request(.get, path)), "\(path)")
        }
        for path in ["/api/creations", "/api/creations/", "//api//garage"] {
            #expect(FairRenders.renders(request(.post, path, type: "image/jpeg")), "\(path)")
            #expect(!FairRenders.renders(request(.post, path, type: "application/json")), "\(path): a canvas or a link is not an upload")
        }
        for path in ["/api/creations/cat/share", "/api/hub/use", "/api/hub/recommendations/"] {
            #expect(FairRenders.renders(request(.post, path, type: "application/json")), "\(path)")
        }
        for (method, path) in [(HTTPRequest.Method.get, "/api/events"), (.get, "/api/creations/cat"), (.get, "/api/creations/cat/history"),
                               (.post, "/api/creations/cat/edits"), (.get, "/app/main.js"), (.get, "/api/creations/render")] {
            #expect(!FairRenders.renders(request(method, path)), "\(method) \(path)")
        }
    }

    @Test func aRenderThatFailsGivesItsSlotBack() async throws {
        struct Broken: Error {}
        let renders = FairRenders(slots: 1)
        await #expect(throws: Broken.self) { try await renders.run(for: 1) { throw Broken() } }
        #expect(try await renders.run(for: 2) { 7 } == 7)
    }
}
