import Foundation

/// One entry of the hub's public library: a week's recommended meme, a published template
/// or a shared meme. Its picture is readable by anyone who knows the id.
public struct LibraryItem: Codable, Sendable, Equatable {
    /// Unguessable: 22 characters of base64url (128 random bits).
    public var id: String
    public var kind: Kind
    public var title: String
    public var tags: [String]
    /// The picture's SHA-256: a recommendation, a shared meme, a template's preview.
    public var hash: String
    public var contentType: String
    public var width: Int
    public var height: Int
    /// The user who published it.
    public var by: String
    /// Milliseconds since 1970.
    public var created: Int64
    /// A recommendation's ISO week ("2026-W47") and place in it (1 first).
    public var week: String?
    public var position: Int?
    /// A template's canvas, base image and text boxes, as the engine's JSON; its base picture
    /// is `GET /v1/library/{id}/base`.
    public var template: String?
    public var baseHash: String?

    public enum Kind: String, Codable, Sendable, CaseIterable {
        case recommendation, template, share
    }

    /// The path of the picture anyone may read.
    public var picturePath: String { HubPaths.library + "/" + id + "/picture" }
    /// A shared meme's public link's path, with the file's extension (chat apps like one).
    public var sharePath: String { HubPaths.shareLinks + "/" + id + "." + LibraryRules.fileExtension(of: contentType) }

    public init(id: String, kind: Kind, title: String, tags: [String], hash: String, contentType: String, width: Int, height: Int,
                by: String, created: Int64, week: String? = nil, position: Int? = nil, template: String? = nil, baseHash: String? = nil) {
        self.id = id; self.kind = kind; self.title = title; self.tags = tags; self.hash = hash; self.contentType = contentType
        self.width = width; self.height = height; self.by = by; self.created = created; self.week = week; self.position = position
        self.template = template; self.baseHash = baseHash
    }
}

/// What a client sends to put something in the library; its picture (and a template's base
/// picture) uploaded first with `PUT /v1/blobs/{hash}`.
public struct LibraryPublish: Codable, Sendable {
    public var title: String
    public var tags: [String]
    public var hash: String
    public var contentType: String
    public var width: Int
    public var height: Int
    /// Recommendations only: the ISO week; this week when absent.
    public var week: String?
    /// Templates only.
    public var template: String?
    public var baseHash: String?
    public init(title: String, tags: [String], hash: String, contentType: String, width: Int, height: Int,
                week: String? = nil, template: String? = nil, baseHash: String? = nil) {
        self.title = title; self.tags = tags; self.hash = hash; self.contentType = contentType; self.width = width; self.height = height
        self.week = week; self.template = template; self.baseHash = baseHash
    }
}

/// A week of recommendations, in the manager's order, and the weeks that have any.
public struct RecommendedWeek: Codable, Sendable {
    public var week: String
    public var items: [LibraryItem]
    /// Every week with recommendations, newest first.
    public var weeks: [String]
    public init(week: String, items: [LibraryItem], weeks: [String]) { self.week = week; self.items = items; self.weeks = weeks }
}

/// A recommendation's new place in its week (1 first).
public struct RecommendationMove: Codable, Sendable {
    public var position: Int
    public init(position: Int) { self.position = position }
}

public struct LibraryPage: Codable, Sendable {
    public var items: [LibraryItem]
    public init(items: [LibraryItem]) { self.items = items }
}

/// What the hub and its clients agree a library entry may be.
public enum LibraryRules {
    public static let titleLength = 1...200
    public static let tagLimit = 20
    public static let tagLength = 1...40
    /// The pictures the library serves, by content type.
    public static let contentTypes = ["image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif"]

    public static func fileExtension(of contentType: String) -> String { contentTypes[contentType] ?? "bin" }

    public static func problem(withTitle title: String, tags: [String]) -> String? {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard titleLength.contains(trimmed.count) else { return "a title has 1 to 200 characters" }
        guard tags.count <= tagLimit else { return "at most \(tagLimit) tags" }
        if let bad = tags.first(where: { !tagLength.contains($0.count) || $0.contains(where: \.isWhitespace) }) {
            return "a tag is one word of 1 to 40 characters, not \"\(bad.prefix(50))\""
        }
        if ([title] + tags).contains(where: { $0.unicodeScalars.contains(where: isControl) }) {
            return "a title or tag cannot hold control characters (line breaks, escapes, NUL)"
        }
        return nil
    }

    /// Control and invisible format characters, which a terminal would act on; the joiners
    /// emoji sequences are made with are text.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control: true
        case .format: scalar.value != 0x200D && scalar.value != 0x200C
        default: false
        }
    }

    /// A title or tag from a hub, safe to print: control characters shown as U+FFFD.
    public static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "\u{FFFD}" : $0 }))
    }

    /// The most a library picture may weigh.
    public static let largestPicture = 16 << 20

    /// What a picture's first bytes say it is: the four the library shows, and the other
    /// kinds a template's base picture may be (what the engine reads).
    public static func sniff(_ head: Data) -> String? {
        let bytes = [UInt8](head.prefix(16))
        func at(_ offset: Int, _ text: String) -> Bool {
            let want = Array(text.utf8)
            return bytes.count >= offset + want.count && Array(bytes[offset..<offset + want.count]) == want
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if at(0, "GIF8") { return "image/gif" }
        if at(0, "RIFF"), at(8, "WEBP") { return "image/webp" }
        if at(0, "BM") { return "image/bmp" }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if at(4, "ftypavif") || at(4, "ftypavis") { return "image/avif" }
        return nil
    }

    /// "2026-W47" for a date, as ISO 8601 counts weeks (Monday first, week 1 holds January 4th).
    public static func week(of date: Date) -> String {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
        return String(format: "%04d-W%02d", parts.yearForWeekOfYear ?? 1970, parts.weekOfYear ?? 1)
    }

    /// True for "YYYY-Www" with a week that year has.
    public static func isWeek(_ text: String) -> Bool {
        let parts = text.split(separator: "-W", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let number = Int(parts[1]),
              (1...53).contains(number), year >= 1970 else { return false }
        // A year has week 53 when December 28th falls in it.
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let december28 = calendar.date(from: DateComponents(year: year, month: 12, day: 28))!
        return number <= calendar.component(.weekOfYear, from: december28)
    }
}
