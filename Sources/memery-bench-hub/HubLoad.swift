import AsyncHTTPClient
import Foundation
import MemeryHubProtocol
import NIOCore
import NIOHTTP1

/// `make bench-hub`'s load: simulated machines syncing through hubs, as `memery sync` does
/// it (scripts/bench-hub starts PostgreSQL, the hubs and pgbench around it).
///
///     memery-bench-hub [--pull-separately] HUB[,HUB...] MACHINES SECONDS [EVENTS-PER-PUSH]
///
/// Machines come in pairs, one account per pair, the two on different hubs: each pushes an
/// append of EVENTS-PER-PUSH events and gets what is new (its partner's work, and its own
/// coming back) in the push's answer, pulling only when that page is full, as `memery sync`
/// does; with `--pull-separately`, it pulls after each push as memery did before (two round
/// trips a cycle). Again and again until SECONDS are up. Prints one JSON line: pushes,
/// events stored, requests, and push, pull and whole-cycle latencies (p50, p99) in milliseconds.
///
///     memery-bench-hub --floor PATH HUB[,HUB...] MACHINES SECONDS
///
/// The floor under any hub on this machine: machines asking for PATH (a path no route has,
/// answered 404 by the hub's middleware alone; or /healthz, one `SELECT 1`) as fast as
/// answers come. Prints requests a second and their latencies.
@main
enum HubLoad {
    static func main() async throws {
        var args = Array(CommandLine.arguments.dropFirst())
        if args.first == "--floor", args.count == 5, let machines = Int(args[3]), let seconds = Double(args[4]) {
            args.removeFirst()
            try await floor(path: args[0], hubs: args[1].split(separator: ",").map(String.init), machines: machines, seconds: seconds)
            return
        }
        let separately = args.first == "--pull-separately"
        if separately { args.removeFirst() }
        guard args.count >= 3, let machines = Int(args[1]), machines >= 1, let seconds = Double(args[2]) else {
            FileHandle.standardError.write(Data("usage: memery-bench-hub [--pull-separately] HUB[,HUB...] MACHINES SECONDS [EVENTS-PER-PUSH]\n".utf8))
            exit(2)
        }
        let hubs = args[0].split(separator: ",").map(String.init)
        let perPush = args.count > 3 ? Int(args[3]) ?? 5 : 5
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, machines)
        configuration.timeout.connect = .seconds(10)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

        // Accounts and sessions first (bcrypt is not what is measured).
        let run = String(UUID().uuidString.prefix(6)).lowercased()
        var tokens = [String](repeating: "", count: machines)
        // Each pair comes from an address of its own (the hubs trust 127.0.0.1 as a proxy), as
        // people do: the hub's per-address limits on sign-ups and password checks (issue 30
        // §5) would otherwise take the whole load for one client. One at a time: password
        // checks under way count against an address until they are answered.
        var users = [Int: String]()
        for pair in 0..<(machines + 1) / 2 {
            let user = "bench-\(run)-\(pair)"
            _ = try await send(client, .POST, hubs[0] + HubPaths.accounts, SignUpRequest(user: user, password: "bench password"),
                               from: address(of: pair))
            users[pair] = user
        }
        for machine in 0..<machines {
            let hub = hubs[machine % hubs.count]
            let data = try await send(client, .POST, hub + HubPaths.sessions,
                                      LoginRequest(user: users[machine / 2]!, password: "bench password", device: "machine \(machine)"),
                                      from: address(of: machine / 2))
            tokens[machine] = try JSONDecoder().decode(LoginAnswer.self, from: data).token
        }

        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let results = try await withThrowingTaskGroup(of: MachineResult.self) { group in
            for machine in 0..<machines {
                let hub = hubs[machine % hubs.count], token = tokens[machine]
                group.addTask {
                    try await Machine(client: client, hub: hub, token: token, perPush: perPush, pullSeparately: separately).run(until: deadline)
                }
            }
            var all = [MachineResult]()
            for try await result in group { all.append(result) }
            return all
        }
        let pushes = results.flatMap(\.pushMs).sorted(), pulls = results.flatMap(\.pullMs).sorted()
        let cycles = results.flatMap(\.cycleMs).sorted()
        let summary: [String: Any] = [
            "machines": machines, "hubs": hubs.count, "seconds": seconds, "eventsPerPush": perPush,
            "roundTrips": separately ? "push, then pull" : "one (the pull in the push's answer)",
            "requestsPerSecond": Double(pushes.count + pulls.count) / seconds,
            "cycleP50": percentile(cycles, 0.5), "cycleP99": percentile(cycles, 0.99),
            "pushes": pushes.count, "events": pushes.count * perPush,
            "pushesPerSecond": Double(pushes.count) / seconds, "eventsPerSecond": Double(pushes.count * perPush) / seconds,
            "pushP50": percentile(pushes, 0.5), "pushP99": percentile(pushes, 0.99),
            "pulls": pulls.count, "pullP50": percentile(pulls, 0.5), "pullP99": percentile(pulls, 0.99),
            "pulledEvents": results.map(\.pulled).reduce(0, +), "errors": results.map(\.errors).reduce(0, +),
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
        try await client.shutdown()
    }

    static func floor(path: String, hubs: [String], machines: Int, seconds: Double) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, machines)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for machine in 0..<machines {
                let url = hubs[machine % hubs.count] + path
                group.addTask {
                    var times = [Double]()
                    let clock = ContinuousClock()
                    while clock.now < deadline {
                        let start = clock.now
                        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        let elapsed = (clock.now - start).components
                        times.append(Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15)
                    }
                    return times
                }
            }
            var all = [Double]()
            for try await times in group { all += times }
            return all.sorted()
        }
        let summary: [String: Any] = ["path": path, "machines": machines, "requestsPerSecond": Double(latencies.count) / seconds,
                                      "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99)]
        print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
        try await client.shutdown()
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return (sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 100).rounded() / 100
    }

    /// A made-up client address for pair `n`, sent as `X-Forwarded-For`.
    static func address(of n: Int) -> String { "10.\(n >> 16 & 255).\(n >> 8 & 255).\(n & 255)" }

    static func send(_ client: HTTPClient, _ method: HTTPMethod, _ url: String, _ body: (some Encodable)? = Optional<Int>.none,
                     token: String? = nil, from address: String? = nil) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let address { request.headers.add(name: "X-Forwarded-For", value: address) }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw LoadError("\(method) \(url) answered \(response.status.code): \(String(buffer: bytes).prefix(200))")
        }
        return Data(bytes.readableBytesView)
    }
}

/// What a machine needs of a pulled page to go on: its cursor and the events' ids (the
/// next pull names the last, as `memery sync` does). The events themselves are not built: the load shares the hubs' cores, and a real
/// machine's checking and applying is done on its own.
struct PageSummary: Decodable {
    struct EventID: Decodable { var id: UUID }
    var events: [EventID]
    var cursor: Int64
    var more: Bool
}

/// What a machine needs of a push's answer: the position, and the page it carried.
struct PushSummary: Decodable {
    var position: Int64
    var pulled: PageSummary?
}

struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct MachineResult: Sendable {
    /// Each push, each pull on its own, and each cycle (a push and the pulls until the
    /// machine has everything the hub had: what a person waits for).
    var pushMs = [Double](), pullMs = [Double](), cycleMs = [Double]()
    var pulled = 0, errors = 0
}

/// One simulated machine: one creation's stream, an append per push, and what is new pulled
/// with it (naming the last event pulled, as `memery sync` does).
struct Machine {
    let client: HTTPClient
    let hub: String
    let token: String
    let perPush: Int
    let pullSeparately: Bool

    func run(until deadline: ContinuousClock.Instant) async throws -> MachineResult {
        var result = MachineResult()
        let stream = UUID()
        var parent: UUID?, cursor: Int64 = 0, seen: Int64 = 0, last: UUID?
        let clock = ContinuousClock()
        while clock.now < deadline {
            let batch = UUID()
            var events = [HubEvent]()
            for index in 0..<perPush {
                let id = index == 0 ? batch : UUID()
                events.append(HubEvent(id: id, batch: batch, stream: stream, parent: parent, type: "TextLayerEdited", schemaVersion: 1,
                                       time: Int64(Date().timeIntervalSince1970 * 1000),
                                       payload: #"{"id":"L1.\#(index)","text":"when the build finally passes on the \#(index)th try"}"#,
                                       blobs: []))
            }
            parent = batch
            do {
                let start = clock.now
                let key = batch.uuidString.lowercased()
                let ask = pullSeparately ? nil : PullAsk(after: cursor, at: last, limit: 500)
                let data = try await HubLoad.send(client, .POST, hub + HubPaths.events,
                                                  PushRequest(key: key, seen: seen, events: events, pull: ask), token: token)
                result.pushMs.append(milliseconds(clock.now - start))
                let answer = try JSONDecoder().decode(PushSummary.self, from: data)
                seen = answer.position
                var page = answer.pulled
                if let carried = page {
                    result.pulled += carried.events.count
                    cursor = carried.cursor
                    last = carried.events.last?.id ?? last
                }
                while page?.more ?? true {
                    let pullStart = clock.now
                    let next = try JSONDecoder().decode(PageSummary.self, from: try await HubLoad.send(
                        client, .GET, hub + HubPaths.events + "?after=\(cursor)&limit=500" + (last.map { "&at=\($0.uuidString.lowercased())" } ?? ""),
                        token: token))
                    result.pullMs.append(milliseconds(clock.now - pullStart))
                    result.pulled += next.events.count
                    cursor = next.cursor
                    last = next.events.last?.id ?? last
                    page = next
                }
                result.cycleMs.append(milliseconds(clock.now - start))
            } catch {
                result.errors += 1
                if result.errors == 1 { FileHandle.standardError.write(Data("error: \(error)\n".utf8)) }
            }
        }
        return result
    }

    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
