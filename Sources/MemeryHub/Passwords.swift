import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt, run on NIO's blocking thread pool (a hash takes a quarter of a second at cost
/// 12, which would stall every request on the event loop) and through `PasswordQueue`.
///
/// bcrypt reads at most 72 bytes, so every byte counts only if the password is first made
/// shorter: a new hash is bcrypt over the base64 of the password's SHA-256 (44 bytes),
/// stored as `sha256+` and bcrypt's own text. A hash stored before that (bcrypt's text
/// alone) still verifies against the password as it is.
struct Passwords: Sendable {
    /// bcrypt's cost: 12 in service; tests lower it (`memery hub --bcrypt-cost`).
    let cost: UInt8
    let queue: PasswordQueue
    /// Hashed at the same cost as real passwords, so that checking it takes as long.
    private let decoy: String
    static let prehashed = "sha256+"

    init(cost: UInt8, queue: PasswordQueue = PasswordQueue()) {
        self.cost = cost
        self.queue = queue
        decoy = Self.prehashed + Bcrypt.hash(Self.prepared("memery decoy"), cost: cost)
    }

    static func prepared(_ password: String) -> String { Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString() }

    func hash(_ password: String, from address: String, slowedBy wait: Duration = .zero) async throws -> String {
        let cost = cost
        return try await bounded(address, wait) { Self.prehashed + Bcrypt.hash(Self.prepared(password), cost: cost) }
    }

    /// `account`: whose password; one account has at most two checks at once, so that the
    /// limits' slowing bounds the rate of guesses sent in parallel.
    func verify(_ password: String, against hash: String, from address: String, account: String? = nil,
                slowedBy wait: Duration = .zero) async throws -> Bool {
        guard let account else { return try await bounded(address, wait) { Self.check(password, against: hash) } }
        try await queue.admit("account:" + account.lowercased())
        do {
            let result = try await bounded(address, wait) { Self.check(password, against: hash) }
            await queue.leave("account:" + account.lowercased())
            return result
        } catch {
            await queue.leave("account:" + account.lowercased())
            throw error
        }
    }

    /// Checked when the user does not exist, so that a wrong name costs as long as a wrong password.
    func burn(_ password: String, from address: String, slowedBy wait: Duration = .zero) async throws {
        _ = try await verify(password, against: decoy, from: address, slowedBy: wait)
    }

    static func check(_ password: String, against hash: String) -> Bool {
        if hash.hasPrefix(prehashed) { return Bcrypt.verify(prepared(password), hash: String(hash.dropFirst(prehashed.count))) }
        return Bcrypt.verify(password, hash: hash)
    }

    /// `work` on a pool thread, admitted for `address` first (429 past its share), after
    /// `wait` (the login limits' slowing), once a core is free.
    private func bounded<T: Sendable>(_ address: String, _ wait: Duration, _ work: @escaping @Sendable () -> T) async throws -> T {
        try await queue.admit(address)
        do {
            if wait > .zero { try await Task.sleep(for: wait) }
        } catch {
            await queue.leave(address)
            throw error
        }
        await queue.start()
        let result: Result<T, any Error>
        do { result = .success(try await NIOThreadPool.singleton.runIfActive(work)) } catch { result = .failure(error) }
        await queue.finish()
        await queue.leave(address)
        return try result.get()
    }
}
