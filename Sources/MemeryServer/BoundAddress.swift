import MemeryLocks

/// The port the server actually listens on, known once it is bound (port 0 picks one);
/// the Host check and the cookie's name need it.
final class BoundAddress: Sendable {
    private let bound = Locked<Int?>(nil)

    var port: Int? { bound.withLock { $0 } }
    func set(_ port: Int) { bound.withLock { $0 = port } }
}
