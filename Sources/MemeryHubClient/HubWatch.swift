import AsyncHTTPClient
import Foundation
import MemeryHubProtocol
import NIOCore
import NIOHTTP1

/// Waits for news from the hub's event stream (`/v1/events/watch`), or a few seconds for
/// this store's own edits to push; returns as soon as either is due.
public enum HubWatch {
    public static func wait(_ login: HubLogin, after position: Int64, idle: Duration = .seconds(5)) async throws {
        let url = login.hub + HubPaths.watch + "?after=\(position)", token = login.token
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                do {
                    let response = try await HubConnection.client.execute(request, timeout: .hours(24))
                    guard response.status == .ok else { try await Task.sleep(for: idle); return }
                    for try await chunk in response.body where String(buffer: chunk).contains("event: position") { return }
                } catch is CancellationError {
                    return
                } catch {
                    try await Task.sleep(for: idle)  // the hub is away: try again later
                }
            }
            group.addTask { try await Task.sleep(for: idle) }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}
