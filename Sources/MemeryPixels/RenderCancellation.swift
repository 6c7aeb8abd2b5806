import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A render nobody waits for any more (the web editor's page closed while it ran). The work
/// runs on a thread of its own; `during` marks that thread, and a filter run there is asked
/// to stop: in this process `host->progress` answers false; in the helper process too, told
/// by a signal (`HelperStop`), and the helper is ended if it does not stop within a second.
public final class RenderCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    public init() {}

    public func cancel() { cancelled.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    private static let key = "memery.render-cancellation"

    /// The cancellation of the render on this thread, if it has one.
    static var current: RenderCancellation? { Thread.current.threadDictionary[key] as? RenderCancellation }

    /// Runs `body` on this thread with `cancellation` as the thread's.
    public static func during<T>(_ cancellation: RenderCancellation?, _ body: () throws -> T) rethrows -> T {
        guard let cancellation else { return try body() }
        let dictionary = Thread.current.threadDictionary, before = dictionary[key]
        dictionary[key] = cancellation
        defer { dictionary[key] = before }
        return try body()
    }
}

/// The helper's side: SIGUSR1 from memery means "stop", and `host->progress` answers false
/// from then on. An atomic, as a signal handler may only touch such.
enum HelperStop {
    private static let requested = Atomic<Bool>(false)

    static func listen() {
        _ = requested.load(ordering: .relaxed)  // made here, not in the handler: a Swift static starts lazily
        signal(SIGUSR1) { _ in HelperStop.requested.store(true, ordering: .relaxed) }
        // A helper started by a server thread inherits its blocked signals.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static var isRequested: Bool { requested.load(ordering: .relaxed) }
}
