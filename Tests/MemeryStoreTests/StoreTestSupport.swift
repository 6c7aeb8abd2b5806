import Foundation
@_exported import MemeryTestSupport
@testable import MemeryStore

func event(_ json: String, type: String = "Noted") -> NewEvent {
    NewEvent(type: type, schemaVersion: 1, payload: Data(json.utf8))
}
