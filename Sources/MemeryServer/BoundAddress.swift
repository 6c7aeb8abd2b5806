import Foundation

/// The port the server actually listens on, known once it is bound (port 0 picks one);
/// the Host check and the cookie's name need it.
final class BoundAddress: @unchecked Sendable {
    private let lock = NSLock()
    private var bound: Int?

    var port: Int? { lock.withLock { bound } }
    func set(_ port: Int) { lock.withLock { bound = port } }
}
