import Foundation

/// Where a picture came from when it came from the web: the link it was downloaded from and,
/// for one found by a web search, its title, author and licence. Kept with the picture in its
/// event, so every machine and every later session can say where it came from and credit it.
public struct PictureOrigin: Sendable, Hashable, Codable {
    /// The address the picture was asked for (before any redirect), http or https.
    public var url: String
    public var title: String?
    public var author: String?
    /// The licence's short name ("CC BY-SA 4.0") and where it is written out.
    public var licence: String?
    public var licenceURL: String?
    /// The page that shows it with its credits (its Commons or Flickr page), when a search found it.
    public var page: String?

    public init(url: String, title: String? = nil, author: String? = nil, licence: String? = nil, licenceURL: String? = nil,
                page: String? = nil) {
        self.url = url; self.title = title; self.author = author; self.licence = licence; self.licenceURL = licenceURL
        self.page = page
    }

    /// One line crediting the picture, as a licence asks: "“Grumpy cat” by Jane Doe, CC BY 2.0,
    /// https://…"; the link alone for a picture with no credits.
    public var credit: String {
        var parts = [String]()
        var work = title.map { "“\($0)”" } ?? "Picture"
        if let author { work += " by \(author)" }
        parts.append(work)
        if let licence { parts.append(licence) }
        parts.append(page ?? url)
        return title == nil && author == nil && licence == nil ? (page ?? url) : parts.joined(separator: ", ")
    }
}

/// A picture's bytes already in hand, for an edit: decoded in the helper process like a
/// file named on the command line, its origin kept with it. (A front end downloads a link,
/// then edits with this; the engine itself reaches no network.)
public struct PictureBytes: Sendable, Equatable {
    public var data: Data
    /// A name for messages and the picture's source name ("cat.jpg").
    public var name: String
    public var origin: PictureOrigin?

    public init(data: Data, name: String, origin: PictureOrigin?) {
        self.data = data; self.name = name; self.origin = origin
    }
}
