import Foundation
@testable import MemeryStore

/// A fresh directory under the system's temporary folder, removed by `cleanup()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("memery-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func cleanup() { try? FileManager.default.removeItem(at: url) }
}

func event(_ json: String, type: String = "Noted") -> NewEvent {
    NewEvent(type: type, schemaVersion: 1, payload: Data(json.utf8))
}
