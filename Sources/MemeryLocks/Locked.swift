import Foundation

/// A value shared between threads, read and changed only under its lock: the one lock type
/// of every target that needs one (the store, the renderer, the editor's server).
///
/// A pthread mutex (NSLock) rather than the standard library's `Mutex`: on Linux that one
/// waits on a futex that ThreadSanitizer cannot see, so `make tsan` would report every
/// access it guards as a race. `@unchecked Sendable`, earned: the value is reached only
/// inside `withLock`.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
