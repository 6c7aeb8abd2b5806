import Foundation

/// A second process editing the same creation while `memery apply` streams into it and is
/// killed: one `memery text --bottom` after another, as a terminal beside the editor would.
/// Issue 30 §6: two writers never make an edit fail, so every run must succeed, and every
/// caption it acknowledged must be in the store at the end. Paused while a round is checked,
/// so that the checks read a store nobody is writing.
/// `@unchecked Sendable`, earned: every mutable field is read and written under `condition`.
final class SecondWriter: @unchecked Sendable {
    let memery: String, store: URL, mapSize: Int
    private let condition = NSCondition()
    private var paused = true, busy = false, stopped = false
    private var edits = 0
    /// Captions whose `memery text` exited 0, and how the others failed.
    private(set) var acknowledged = [String](), failures = [String]()

    init(memery: String, store: URL, mapSize: Int) {
        self.memery = memery; self.store = store; self.mapSize = mapSize
        Thread { self.loop() }.start()
    }

    func resume() {
        condition.lock(); paused = false; condition.broadcast(); condition.unlock()
    }

    /// Returns once no edit is under way; none starts until `resume()`.
    func pause() {
        condition.lock()
        paused = true
        while busy { condition.wait() }
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while busy { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while paused && !stopped { condition.wait() }
            if stopped { condition.unlock(); return }
            busy = true
            edits += 1
            let text = "second-\(edits)"
            condition.unlock()
            let outcome = edit(text)
            condition.lock()
            if let outcome { failures.append("\(text): \(outcome)") } else { acknowledged.append(text) }
            busy = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// nil when the edit was stored; else how it failed.
    private func edit(_ text: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: memery)
        process.arguments = ["text", "soak", "--bottom", text, "--store", store.path]
        var environment = ProcessInfo.processInfo.environment
        environment["MEMERY_MAP_SIZE"] = String(mapSize)
        environment["MEMERY_FAILPOINT"] = nil
        process.environment = environment
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch { return "did not start: \(error)" }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "exit \(process.terminationStatus): \(message.trimmingCharacters(in: .whitespacesAndNewlines))"
    }
}
