import AsyncHTTPClient
import Foundation
import MemeryHubProtocol
import NIOCore
import NIOHTTP1

/// Waits until a sync is due: news on the hub's event stream (`/v1/events/watch`), or an
/// edit in this store to push (`localEdits`, asked every `poll`), whichever comes first;
/// at the latest after `idle`, in case a proxy dropped the stream without a word.
public enum HubWatch {
    public static func wait(_ login: HubLogin, after position: Int64, localEdits: (@Sendable () throws -> Bool)? = nil,
                            poll: Duration = .milliseconds(200), idle: Duration = .seconds(60),
                            reconnect: Duration = .seconds(5)) async throws {
        let url = login.hub + HubPaths.watch + "?after=\(position)", token = login.token
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                do {
                    let response = try await HubConnection.client.execute(request, timeout: .hours(24))
                    guard response.status == .ok else { try await Task.sleep(for: reconnect); return }
                    // A message may come split across chunks: what came last is kept to look at with the next.
                    var seen = ""
                    for try await chunk in response.body {
                        seen = String(seen.suffix(32)) + String(buffer: chunk)
                        if seen.contains("event: position") { return }
                    }
                } catch is CancellationError {
                    return
                } catch {
                    try await Task.sleep(for: reconnect)  // the hub is away: try again soon
                }
            }
            if let localEdits {
                group.addTask {
                    // A local read of the log's end: microseconds, so asked often.
                    while !(try localEdits()) { try await Task.sleep(for: poll) }
                }
            }
            group.addTask { try await Task.sleep(for: idle) }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}
