public import Foundation
import MemeryCore
import MemeryRender

/// The async face of a workspace, for servers. Every call runs on the workspace's own
/// threads, never on Swift's cooperative pool, which blocking work (a synced commit, LMDB's
/// writer lock, decoding, rendering, a plugin helper) would starve: edits on one serial
/// queue, in the order they were asked for; reads and renders on a concurrent one.
/// A read someone may stop waiting for (the web editor's page closed): front ends hand one
/// to `reading(cancelledBy:)` and cancel it; the renderer behind the facade listens.
public final class ReadCancellation: Sendable {
    let render = RenderCancellation()
    public init() {}
    public func cancel() { render.cancel() }
}

extension Workspace {
    /// Performs one edit of the shared vocabulary (what `memery apply` and the HTTP API take).
    public func perform(_ edit: Edit, on name: String?) async throws -> EditResult {
        try await onQueue(writer) { try self.perform(edit, on: name) }
    }

    /// The creation at the head of its history.
    public func creation(named name: String) async throws -> Creation {
        try await onQueue(readers) { try self.creation(named: name) }
    }

    public func history(of name: String) async throws -> CreationHistory {
        try await onQueue(readers) { try self.history(of: name) }
    }

    public func gallery() async throws -> Gallery {
        try await onQueue(readers) { try self.gallery() }
    }

    /// The creation's picture, encoded: at its own size, or scaled to `width` pixels wide.
    public func picture(of name: String, width: Int? = nil, format: ExportFormat,
                        quality: Int = ExportFormat.defaultQuality) async throws -> Picture {
        try await onQueue(readers) { try self.picture(of: name, width: width, format: format, quality: quality) }
    }

    /// Runs `body` with the workspace on its readers' threads: for a front end that reads
    /// several things at once (a server answering with a creation's state and its picture).
    /// With a `cancellation`, a filter running for `body` is asked to stop once it is
    /// cancelled (the page that asked for the picture was closed).
    public func reading<T: Sendable>(cancelledBy cancellation: ReadCancellation? = nil,
                                     _ body: @escaping @Sendable (Workspace) throws -> T) async throws -> T {
        try await onQueue(readers) { try RenderCancellation.during(cancellation?.render) { try body(self) } }
    }

    /// Runs `body` with the workspace on its writer's thread, after every edit asked for
    /// before: a check and the edits that depend on it are not interleaved with this
    /// process's other edits.
    public func editing<T: Sendable>(_ body: @escaping @Sendable (Workspace) throws -> T) async throws -> T {
        try await onQueue(writer) { try body(self) }
    }

    private func onQueue<T: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
