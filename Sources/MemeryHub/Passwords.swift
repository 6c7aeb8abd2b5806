import HummingbirdBcrypt
import NIOPosix

/// bcrypt, run on NIO's blocking thread pool: a hash takes a quarter of a second at cost
/// 12, which would stall every request on the event loop.
struct Passwords: Sendable {
    /// bcrypt's cost: 12 in service; tests lower it (`memery hub --bcrypt-cost`).
    let cost: UInt8
    /// Hashed at the same cost as real passwords, so that checking it takes as long.
    private let decoy: String

    init(cost: UInt8) {
        self.cost = cost
        decoy = Bcrypt.hash("memery decoy", cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// Checked when the user does not exist, so that a wrong name costs as long as a wrong password.
    func burn(_ password: String) async throws {
        _ = try await verify(password, against: decoy)
    }
}
