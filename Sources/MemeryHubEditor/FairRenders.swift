import Foundation
import Hummingbird

/// The renders of every person a hub serves (pictures, previews, exports, the decoding of an
/// upload), on a bounded pool with a queue per person, served in turn: one person's
/// 48-megapixel exports wait behind each other, not in front of someone else's 600 px
/// preview, and however many renders the pages ask for at once, no more than `slots` run
/// (each may hold hundreds of megabytes). A person runs one render at a time even with
/// slots idle: a second person then always finds a slot free at once when `slots` ≥ 2,
/// where letting the first take every idle slot would make them wait for a whole export.
actor FairRenders {
    let slots: Int
    private var running = 0
    private var runningFor: [Int64: Int] = [:]
    /// Who waits, each in the order they asked; `turns` is the order people are served in.
    private var waiting: [Int64: [CheckedContinuation<Void, Never>]] = [:]
    private var turns: [Int64] = []

    init(slots: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) {
        self.slots = max(1, slots)
    }

    /// Whether a request to the editor's API renders, decodes or fetches a picture: the
    /// renders, previews (a filter's, words as typed) and exports of a creation, garage pictures, uploads (a picture in
    /// the body), a share (rendered at full size) and a picture taken from the hub's library.
    /// Read by the path's parts, as the router reads them (empty parts dropped: `//` and a
    /// trailing `/` reach the same routes).
    nonisolated static func renders(_ request: Request) -> Bool {
        let parts = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.first == "api" else { return false }
        let route = parts.dropFirst()
        switch request.method {
        case .get, .head:
            if route.count == 3, route.first == "creations" { return ["render", "export", "preview", "text-preview"].contains(route.last) }
            return route.count == 3 && (route.first == "garage" || route.first == "stickers") && route.last == "picture"
        case .post:
            let picture = request.headers[.contentType]?.lowercased().hasPrefix("image/") == true
            if route.count == 1, ["creations", "garage"].contains(route.first) { return picture }
            if route.count == 3, route.first == "creations", route.last == "share" { return true }
            return route.count == 2 && route.first == "hub" && ["use", "recommendations"].contains(route.last)
        default:
            return false
        }
    }

    /// Runs `body` in the person's turn.
    nonisolated func run<T: Sendable>(for person: Int64, _ body: @Sendable () async throws -> T) async throws -> T {
        await enter(person)
        do {
            let result = try await body()
            await leave(person)
            return result
        } catch {
            await leave(person)
            throw error
        }
    }

    /// Renders asked for and not yet started.
    var queued: Int { waiting.values.reduce(0) { $0 + $1.count } }

    private func enter(_ person: Int64) async {
        if running < slots, runningFor[person, default: 0] == 0, waiting.isEmpty {
            start(person)
            return
        }
        await withCheckedContinuation { continuation in
            if waiting[person] == nil { turns.append(person) }
            waiting[person, default: []].append(continuation)
            next()
        }
    }

    private func leave(_ person: Int64) {
        running -= 1
        runningFor[person, default: 1] -= 1
        if runningFor[person] == 0 { runningFor[person] = nil }
        next()
    }

    private func start(_ person: Int64) {
        running += 1
        runningFor[person, default: 0] += 1
    }

    /// Starts the first waiting person in turn who runs nothing, while a slot is free; a
    /// person served goes to the back of the turns.
    private func next() {
        while running < slots, let index = turns.firstIndex(where: { runningFor[$0, default: 0] == 0 }) {
            let person = turns.remove(at: index)
            var queue = waiting[person] ?? []
            let continuation = queue.removeFirst()
            if queue.isEmpty {
                waiting[person] = nil
            } else {
                waiting[person] = queue
                turns.append(person)
            }
            start(person)
            continuation.resume()
        }
    }
}
