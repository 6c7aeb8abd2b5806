import Foundation

/// Whether an event made on another machine can be taken: what the hub admits to a push,
/// and what a machine stores from a pull. The only test is this build's own decoders, so an
/// event that passes replays as every other event does; nothing else about it is trusted.
public enum EventAdmission {
    public enum Verdict: Equatable, Sendable {
        case readable
        /// A type or payload version this build does not know, with a payload that is a JSON
        /// object: most likely written by a newer memery. Kept, not read.
        case newer(String)
        /// Nothing any memery writes: a payload that does not decode, a time out of range.
        case unreadable(String)
    }

    /// Event times are milliseconds since 1970; anything before 2000 or from 2100 on is no
    /// clock's reading, and far past what a `Date` round trip keeps exact.
    public static let earliestTime: Int64 = 946_684_800_000
    public static let latestTime: Int64 = 4_102_444_800_000

    public static func judge(type: String, schemaVersion: Int, payload: Data, time: Int64) -> Verdict {
        guard time >= earliestTime, time < latestTime else {
            return .unreadable("its time (\(time) ms since 1970) is not between 2000 and 2100")
        }
        do {
            if let newest = CreationEvent.currentVersions[type] {
                guard schemaVersion <= newest else { return newer(type, schemaVersion, payload) }
                _ = try CreationEvent.decode(type: type, schemaVersion: schemaVersion, payload: payload)
            } else if GalleryEvent.types.contains(type) {
                guard schemaVersion <= GalleryEvent.newest[type] ?? 1 else { return newer(type, schemaVersion, payload) }
                _ = try GalleryEvent.decode(type: type, schemaVersion: schemaVersion, payload: payload)
            } else if Garage.Event.types.contains(type) {
                guard schemaVersion <= 1 else { return newer(type, schemaVersion, payload) }
                _ = try Garage.Event.decode(type: type, schemaVersion: schemaVersion, payload: payload)
            } else if Templates.Event.types.contains(type) {
                guard schemaVersion <= 1 else { return newer(type, schemaVersion, payload) }
                _ = try Templates.Event.decode(type: type, schemaVersion: schemaVersion, payload: payload)
            } else {
                return newer(type, schemaVersion, payload)
            }
        } catch let error as EventDecodingError {
            return .unreadable(error.description)
        } catch {
            return .unreadable("its payload does not decode: \(error)")
        }
        return .readable
    }

    /// A type or version not known here: from a newer memery when its payload is at least a
    /// JSON object with a sane type name, else garbage.
    private static func newer(_ type: String, _ version: Int, _ payload: Data) -> Verdict {
        let plausibleType = (1...100).contains(type.utf8.count) && type.utf8.allSatisfy { isASCIILetterOrDigit($0) }
        guard plausibleType, version >= 1, (try? JSONSerialization.jsonObject(with: payload)) is [String: Any] else {
            return .unreadable("\(type.prefix(100)) version \(version) is no event type any memery writes")
        }
        return .newer("\(type) version \(version) is newer than this memery reads")
    }

    /// The hashes of the pictures an event's payload names: every `"blob"` field, wherever
    /// the event keeps its `BaseImage`s (a creation's base and image layers, the garage,
    /// templates). Those of the events `namesPicturesItUses` is true for travel with them.
    public static func pictures(in payload: Data) -> [String] {
        guard let json = try? JSONSerialization.jsonObject(with: payload) else { return [] }
        var found = Set<String>()
        func visit(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, inner) in object {
                    if key == "blob", let hash = inner as? String, isPictureHash(hash) { found.insert(hash) } else { visit(inner) }
                }
            } else if let array = value as? [Any] {
                array.forEach(visit)
            }
        }
        visit(json)
        return found.sorted()
    }

    /// False for events that name a picture only to say which garage item they are about.
    public static func namesPicturesItUses(_ type: String) -> Bool { type != "GarageImageRemoved" && type != "GarageImageTagged" }

    /// True for a SHA-256 in lower-case hex, as pictures are named everywhere.
    static func isPictureHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte)
    }
}
