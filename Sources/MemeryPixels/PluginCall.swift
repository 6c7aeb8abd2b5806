import Foundation
import MemeryPluginABI

/// One call into a plugin and the host it is handed: the filter (or plugin) it is, for its
/// log lines, and when it should stop, which `host->progress` then answers with false (a
/// filter that honours it returns MEMERY_ERROR_CANCELLED). A plugin calls the host only
/// from the thread that called it, so this needs no lock.
final class PluginCall {
    let source: String
    /// `plugin check`: answer false from this many progress calls on.
    var stopAtCall: Int?
    /// The helper: answer false once this instant has passed (a little before the time
    /// limit, so that a filter that listens can end cleanly instead of being killed).
    var deadline: ContinuousClock.Instant?
    /// Whether the host offers its thread pool (`plugin check` also runs without, so that a
    /// filter's plain-loop fallback is tried too).
    var lendsThreadPool = true
    /// The render this call belongs to, when someone may stop waiting for it (the thread's).
    let cancellation = RenderCancellation.current
    private(set) var progressCalls = 0
    /// Whether progress() has answered false.
    private(set) var stopped = false

    init(source: String) { self.source = source }

    func progress(_ fraction: Double) -> Bool {
        progressCalls += 1
        if let stopAtCall, progressCalls >= stopAtCall { stopped = true }
        if let deadline, ContinuousClock.now >= deadline { stopped = true }
        if cancellation?.isCancelled == true || HelperStop.isRequested { stopped = true }
        return !stopped
    }

    /// `body` with a host for this call; the host lives only for the call.
    func withHost<T>(_ body: (inout memery_host) throws -> T) rethrows -> T {
        let context = Unmanaged.passRetained(self)
        defer { context.release() }
        var host = memery_host(
            struct_size: UInt32(MemoryLayout<memery_host>.size), abi_major: UInt16(MEMERY_FILTER_ABI_MAJOR),
            abi_minor: UInt16(MEMERY_FILTER_ABI_MINOR), host_data: context.toOpaque(),
            log: { host, level, text in
                guard let text, let data = host?.pointee.host_data else { return }
                let call = Unmanaged<PluginCall>.fromOpaque(data).takeUnretainedValue()
                PluginLog.write(source: call.source, level: level, text: String(cString: text))
            },
            progress: { host, fraction in
                guard let data = host?.pointee.host_data else { return true }
                return Unmanaged<PluginCall>.fromOpaque(data).takeUnretainedValue().progress(fraction)
            },
            extension: { host, id in
                guard let id, String(cString: id) == MEMERY_HOST_EXT_THREAD_POOL, let data = host?.pointee.host_data,
                      Unmanaged<PluginCall>.fromOpaque(data).takeUnretainedValue().lendsThreadPool else { return nil }
                return UnsafeRawPointer(PluginThreadPool.table)
            })
        return try body(&host)
    }
}

/// MEMERY_HOST_EXT_THREAD_POOL: the host's threads lent to a filter, so that the built-ins
/// (and any plugin) start none of their own. Dispatch's pool is shared by every render under
/// way, so concurrent renders in `memery serve` share the cores instead of each starting a
/// thread per core; MEMERY_THREADS caps one call's workers, as it does the host's own passes.
enum PluginThreadPool {
    /// Written once, then only read (by plugins, through the host).
    nonisolated(unsafe) static let table: UnsafeMutablePointer<memery_thread_pool> = {
        let table = UnsafeMutablePointer<memery_thread_pool>.allocate(capacity: 1)
        table.initialize(to: memery_thread_pool(
            struct_size: UInt32(MemoryLayout<memery_thread_pool>.size),
            workers: { _ in UInt32(RowBands.threads) },
            run: { _, count, task, context in
                guard let task else { return false }
                PluginThreadPool.run(count: Int(count), task: task, context: context)
                return true
            }))
        return table
    }()

    /// Worker w runs tasks w, w + workers, w + 2 × workers… (the tasks of one call are alike).
    static func run(count: Int, task: memery_task, context: UnsafeMutableRawPointer?) {
        let workers = min(RowBands.threads, count)
        guard workers > 1 else {
            for index in 0..<count { task(context, UInt32(index), 0) }
            return
        }
        let shared = SendableTask(task: task, context: context)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: count, by: workers) { shared.task(shared.context, UInt32(index), UInt32(worker)) }
        }
    }

    /// The plugin's task and context, crossing to Dispatch's threads: the plugin promised
    /// its tasks may run at once.
    private struct SendableTask: @unchecked Sendable {
        let task: memery_task
        let context: UnsafeMutableRawPointer?
    }
}
