import Foundation
import HTTPTypes
import Memery

/// The body of `POST /api/creations/{name}/edits`: `memery apply`'s JSON, one edit object or
/// a list, with an optional `expectedVersion`.
enum EditBody {
    /// The edits and the version they expect the creation at.
    static func parse(_ body: Any) throws -> (edits: [Edit], expected: UInt64?) {
        var expected: Any?
        let objects: [Any]
        switch body {
        case var object as [String: Any]:
            expected = object.removeValue(forKey: "expectedVersion")
            if let list = object["edits"] {
                guard object.count == 1, let list = list as? [Any] else {
                    throw APIError(.badRequest, "beside \"edits\": [...] only \"expectedVersion\" may be given")
                }
                objects = list
            } else {
                objects = [object]
            }
        case let list as [Any]:
            objects = list
        default:
            throw APIError(.badRequest, "send an edit as a JSON object ({\"op\": ...}) or a list of them")
        }
        guard !objects.isEmpty else { throw APIError(.badRequest, "the list of edits is empty") }
        guard objects.count <= 1_000 else { throw APIError(.badRequest, "at most 1000 edits per request, got \(objects.count)") }
        let version: UInt64?
        switch expected {
        case nil, is NSNull: version = nil
        case let number as NSNumber where String(cString: number.objCType) != "c" && number.doubleValue >= 0
            && number.doubleValue == number.doubleValue.rounded() && number.doubleValue < 1e18:
            version = number.uint64Value
        default:
            throw APIError(.badRequest, "expectedVersion must be a whole number, the version an earlier answer gave")
        }
        return (try objects.map { object in
            guard let fields = object as? [String: Any] else { throw APIError(.badRequest, "each edit is a JSON object with an \"op\"") }
            return try edit(from: fields)
        }, version)
    }

    /// One edit from its JSON object. A creation is named by the address, not the body, and
    /// pictures arrive as uploads, never as paths on the server.
    static func edit(from fields: [String: Any]) throws -> Edit {
        if fields["creation"] != nil {
            throw APIError(.badRequest, "\"creation\" is not taken here: the address names the creation")
        }
        let data = try JSONSerialization.data(withJSONObject: fields)
        let edit = try AddressedEdit.decode(jsonLine: String(decoding: data, as: UTF8.self)).edit
        switch edit {
        case .new(.image), .addImage(.file, _, _, _, _, _), .garageAdd:
            throw APIError(.badRequest, "a path on the server cannot be read: upload the picture to /api/garage (or POST it to /api/creations), then name it with \"garage\"")
        case _ where edit.link != nil:
            throw APIError(.badRequest, "a picture from a link is taken with POST /api/garage {\"url\": …} (cancelled if the page goes), then named with \"garage\"")
        default:
            break
        }
        return edit
    }
}
