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
    private(set) var progressCalls = 0
    /// Whether progress() has answered false.
    private(set) var stopped = false

    init(source: String) { self.source = source }

    func progress(_ fraction: Double) -> Bool {
        progressCalls += 1
        if let stopAtCall, progressCalls >= stopAtCall { stopped = true }
        if let deadline, ContinuousClock.now >= deadline { stopped = true }
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
            })
        return try body(&host)
    }
}
