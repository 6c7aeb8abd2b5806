import Foundation
import HTTPTypes

/// bcrypt's work, bounded: every password check of the hub passes here. One address has at
/// most `perAddress` checks in the hub at once (waiting or running), the whole hub at most
/// `running` hashing and `waiting` queued; past either the answer is 429 at once. A flood
/// from one address (or many) therefore holds a few slots, never every core, and a real
/// login waits behind at most the queue.
actor PasswordQueue {
    let running: Int
    let waiting: Int
    let perAddress: Int
    private var busy = 0
    private var queue: [CheckedContinuation<Void, Never>] = []
    private var byAddress: [String: Int] = [:]

    init(running: Int = max(1, ProcessInfo.processInfo.activeProcessorCount), waiting: Int = 64, perAddress: Int = 2) {
        self.running = running; self.waiting = waiting; self.perAddress = perAddress
    }

    /// Admits one check for `address` (before any wait it may have to make); 429 when full.
    func admit(_ address: String) throws {
        guard byAddress[address, default: 0] < perAddress else {
            throw HubError(.tooManyRequests, "too-many-attempts",
                           address.hasPrefix("account:") ? "too many password checks for this account at once: wait for the answers"
                                                         : "too many password checks from this address at once: wait for the answers",
                           headers: [.retryAfter: "2"])
        }
        guard queue.count < waiting else {
            throw HubError(.tooManyRequests, "too-many-attempts", "the hub is busy checking passwords: try again in a few seconds",
                           headers: [.retryAfter: "5"])
        }
        byAddress[address, default: 0] += 1
    }

    /// Waits for a core to hash on.
    func start() async {
        if busy < running {
            busy += 1
            return
        }
        await withCheckedContinuation { queue.append($0) }
    }

    func finish() {
        if queue.isEmpty { busy -= 1 } else { queue.removeFirst().resume() }
    }

    func leave(_ address: String) {
        let left = byAddress[address, default: 1] - 1
        byAddress[address] = left > 0 ? left : nil
    }
}
