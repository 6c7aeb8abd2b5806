import ArgumentParser
import Foundation
import Memery
import MemeryWeb
import MemeryHubClient

/// `--hub URL` for commands that only read the public library.
struct PublicHubOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The hub to read from; by default the one this store is logged in to (reading needs no login).",
                               valueName: "hub-url"))
    var hub: String?
}

/// Tags as `--tag funny --tag cats`.
struct LibraryEntryOptions: ParsableArguments {
    @Option(help: "A tag (one word); repeat for more.") var tag: [String] = []
}

/// Prints a protocol value as JSON, keys sorted.
func printEncoded(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// `recommend remove`, `template unpublish`: an entry taken down by the store's account.
func takeDown(_ id: String, _ kind: LibraryItem.Kind, _ storeOptions: StoreOptions) async throws {
    let login = try requireLogin(try storeOptions.open())
    try await HubLibrary.remove(login, id: id, kind: kind)
    print("took down \(HubLibrary.entryID(from: id))")
}

/// One line for a library entry: id, kind, title, tags, size, by whom.
/// What the hub sent is printed through `printable`: a hostile title cannot drive the terminal.
func describeEntry(_ item: LibraryItem) -> String {
    let tags = item.tags.isEmpty ? "" : "  #" + item.tags.joined(separator: " #")
    return LibraryRules.printable("\(item.id)  \(item.kind.rawValue)  \(item.title)\(tags)  \(item.width)x\(item.height) \(LibraryRules.fileExtension(of: item.contentType))  by \(item.by)")
}

// MARK: Recommendations

struct RecommendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recommend", abstract: "Publish, reorder and take down the week's recommended memes (managers only).",
        subcommands: [RecommendAddCommand.self, RecommendRemoveCommand.self, RecommendMoveCommand.self])
}

struct RecommendAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Recommend a picture file, or a creation of this store rendered; prints the entry's id.",
        discussion: "When a file of that name exists it is the file; otherwise a creation. Pictures other than PNG, JPEG, WebP and GIF go up as PNG.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: ArgumentHelp("A picture file, or a creation's name.", valueName: "file-or-creation")) var source: String
    @Option(help: "The title people see.") var title: String
    @OptionGroup var entry: LibraryEntryOptions
    @Option(help: "The ISO week it is recommended in (2026-W47); this week by default.") var week: String?
    @Flag(help: "Print the entry as JSON.") var json = false

    func run() async throws {
        let workspace = try storeOptions.open()
        let login = try requireLogin(workspace)
        var isDirectory: ObjCBool = false
        let isFile = FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) && !isDirectory.boolValue
        let picture: LibraryPicture
        if isFile {
            let (read, converted) = try workspace.library.picture(imageAt: source)
            if let converted { FileHandle.standardError.write(Data("note: \(source) is \(converted.uppercased()); it goes up as PNG\n".utf8)) }
            picture = read
        } else {
            do {
                picture = try workspace.library.picture(of: source, format: nil)
            } catch DomainError.noSuchCreation(_) {
                throw InputError("no file or creation named \"\(source)\"")
            }
        }
        let (title, tags, week) = (title, entry.tag, week)
        let item = try await HubLibrary.publish(login, .recommendation, picture: picture, title: title, tags: tags, week: week)
        if json { try printEncoded(item) } else { print("recommended in \(item.week ?? "?") at #\(item.position ?? 0): \(describeEntry(item))") }
    }
}

struct RecommendRemoveCommand: AsyncParsableCommand {
    static let kind = LibraryItem.Kind.recommendation
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Take a recommendation down.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The entry's id (`memery recommended` lists them).") var id: String

    func run() async throws { try await takeDown(id, Self.kind, storeOptions) }
}

struct RecommendMoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Put a recommendation at another place in its week (1 is first).")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The entry's id.") var id: String
    @Argument(help: "Its new place, 1 first.") var position: Int

    func run() async throws {
        guard position >= 1 else { throw InputError("the place is 1 or more, got \(position)") }
        let login = try requireLogin(try storeOptions.open())
        let (id, position) = (id, position)
        let week: RecommendedWeek? = try await HubLibrary.move(login, id: id, to: position)
        for item in week?.items ?? [] { print("\(item.position ?? 0). \(describeEntry(item))") }
    }
}

struct RecommendedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recommended", abstract: "Browse the hub's recommended memes, by week; `recommended use ID` starts a creation from one.",
        subcommands: [RecommendedListCommand.self, RecommendedUseCommand.self], defaultSubcommand: RecommendedListCommand.self)
}

struct RecommendedListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "A week's recommendations in order (this week by default), and which weeks have some.",
        discussion: "Each picture is fetched and decoded as `use` would: one this memery cannot decode is left out, with a note on standard error.")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var hubOptions: PublicHubOptions
    @Option(help: "The ISO week, as 2026-W47.") var week: String?
    @Flag(help: "Print JSON: the week, its entries, the weeks there are and what was skipped.") var json = false

    struct Listing: Encodable {
        var week: String
        var items: [LibraryItem]
        var weeks: [String]
        var skipped: [Skipped]
        struct Skipped: Encodable { var id: String; var title: String; var reason: String }
    }

    func run() async throws {
        let workspace = try storeOptions.open()
        let connection = try HubLibrary.reader(workspace, hub: hubOptions.hub)
        let week = week
        let answer = try await HubLibrary.recommended(connection, week: week)
        var shown = [LibraryItem](), skipped = [Listing.Skipped]()
        for item in answer.items {
            // A picture taken down meanwhile, or damaged on the way, is skipped like one
            // this memery cannot decode.
            let reason: String?
            do {
                reason = workspace.library.undecodable(try await HubLibrary.picture(connection, of: item), source: "\"\(item.title)\"")
            } catch let error as HubClientError where error.status != nil || error.isDamagedAnswer {
                reason = error.description
            }
            if let reason { skipped.append(.init(id: item.id, title: item.title, reason: reason)) } else { shown.append(item) }
        }
        let listing = Listing(week: answer.week, items: shown, weeks: answer.weeks, skipped: skipped)
        for skip in listing.skipped where !json {
            FileHandle.standardError.write(Data((LibraryRules.printable("note: skipped \(skip.id) \"\(skip.title)\": \(skip.reason)") + "\n").utf8))
        }
        if json { try printEncoded(listing); return }
        let others = listing.weeks.filter { $0 != listing.week }
        print(LibraryRules.printable("\(listing.week): \(listing.items.count) recommended" + (others.isEmpty ? "" : " (other weeks: \(others.prefix(8).joined(separator: ", ")))")))
        for item in listing.items { print("\(item.position ?? 0). \(describeEntry(item))") }
    }
}

struct RecommendedUseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "use", abstract: "Start a creation from a recommendation; prints its name and id.")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var hubOptions: PublicHubOptions
    @Argument(help: "The entry's id.") var id: String
    @Option(help: "The creation's name; by default the entry's title (made unique).") var name: String?

    func run() async throws { try await startFromHub(storeOptions, hubOptions, id: id, name: name) }
}

/// `recommended use` and `new --from-hub`: a creation from a library entry.
func startFromHub(_ storeOptions: StoreOptions, _ hubOptions: PublicHubOptions, id: String, name: String?) async throws {
    let workspace = try storeOptions.open()
    let connection = try HubLibrary.reader(workspace, hub: hubOptions.hub)
    let made = try await HubLibrary.startCreation(workspace, from: connection, id: id, name: name)
    print("\(made.creation.name)\t\(made.creation.id.uuidString.lowercased())")
}

// MARK: Search

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search the hub's library (recommendations, published templates, shared memes) by title and tags, or the web.",
        discussion: """
        Words match as written and by their English stem ("cats" finds "cat"); "a phrase" in quotes, -word to leave out, or. \
        `memery new NAME --from-hub ID` starts a creation from a result. With --web: openly licensed pictures from Openverse \
        and Wikimedia Commons, each with its author and licence; `memery new NAME --from-web REFERENCE` takes one and keeps its credits.
        """)
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var hubOptions: PublicHubOptions
    @Flag(help: "Search the open web (Openverse, Wikimedia Commons) instead of the hub.") var web = false
    @Argument(parsing: .allUnrecognized, help: "What to look for (-word leaves a word out).") var words: [String]
    @Option(help: "Only recommendation, template or share.") var kind: String?
    @Option(parsing: .unconditional, help: "At most this many results (1 to 200).") var limit = 50
    @Flag(help: "Print the results as JSON.") var json = false

    func run() async throws {
        guard (1...200).contains(limit) else { throw InputError("--limit is from 1 to 200, got \(limit)") }
        let kind = try kind.map { text in
            guard let kind = LibraryItem.Kind(rawValue: text) else { throw InputError("--kind is recommendation, template or share, not \(text)") }
            return kind
        }
        if let option = words.first(where: { $0.hasPrefix("--") }) {
            throw InputError("unknown option \(option) (a word to leave out takes one dash: -word)")
        }
        let text = words.joined(separator: " ")
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError("search for at least one word") }
        if web { return try await searchWeb(text) }
        let connection = try HubLibrary.reader(try storeOptions.open(), hub: hubOptions.hub)
        let limit = limit
        let items = try await HubLibrary.search(connection, words: text, kind: kind, limit: limit)
        if json { try printEncoded(LibraryPage(items: items)); return }
        if items.isEmpty { print("nothing in the library matches \(text)") }
        for item in items { print(describeEntry(item)) }
    }
}

extension SearchCommand {
    /// Each provider's pictures, or what went wrong with it; the exit code is 0 while any answered.
    func searchWeb(_ text: String) async throws {
        let search = WebSearch.standard(site: LinkOptions.ownDownloader(maxMB: PictureDownloader.defaultMaxMB))
        let count = min(limit, 50)
        let outcomes = await search.search(text, count: count)
        if json {
            try printJSON(["web": outcomes.map(WebOutcomeAnswer.init)])
        } else {
            for outcome in outcomes {
                if let problem = outcome.problem, outcome.images.isEmpty {
                    print("\(outcome.label): \(problem)")
                    continue
                }
                print("\(outcome.label): \(outcome.images.count) picture\(outcome.images.count == 1 ? "" : "s")")
                for image in outcome.images {
                    let size = image.width.flatMap { w in image.height.map { "  \(w)x\($0)" } } ?? ""
                    print("  \(image.reference)  “\(image.title)”\(image.author.map { " by \($0)" } ?? "")  \(image.licence)\(size)")
                    print("      \(image.page)")
                }
            }
        }
        if outcomes.allSatisfy({ !$0.answered }) {
            throw InputError("no picture site answered: " + outcomes.compactMap(\.problem).joined(separator: "; "))
        }
    }
}

/// A web search result as JSON.
/// What `search --web --json` prints of one picture site: what it found, or what went wrong.
struct WebOutcomeAnswer: Encodable {
    struct Image: Encodable {
        var reference: String
        var title: String
        @Nullable var author: String?
        var licence: String
        @Nullable var licenceURL: String?
        var page: String
        var imageURL: String
        @Nullable var thumbnailURL: String?
        @Nullable var width: Int?
        @Nullable var height: Int?
    }
    var provider: String
    var label: String
    @Nullable var problem: String?
    var images: [Image]

    init(_ outcome: WebSearch.Outcome) {
        provider = outcome.provider; label = outcome.label; problem = outcome.problem
        images = outcome.images.map { image in
            Image(reference: image.reference, title: image.title, author: image.author, licence: image.licence,
                  licenceURL: image.licenceURL, page: image.page, imageURL: image.imageURL, thumbnailURL: image.thumbnailURL,
                  width: image.width, height: image.height)
        }
    }
}

// MARK: Sharing

struct ShareCommand: AsyncParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "share", abstract: "Put a creation's picture on the hub behind a public link, and print the link; --revoke LINK takes it down.",
        discussion: "A shared meme is public: anyone with the link sees it, and `memery search` finds it by its title (the creation's name unless --title) and tags.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation to share.") var name: String?
    @Option(parsing: .unconditional, help: "png, jpeg, webp or gif; by default JPEG for an opaque picture, PNG otherwise (GIF and WebP keep an animation).")
    var format: ExportFormat?
    @Option(parsing: .unconditional, help: "JPEG and WebP quality, 1 to 100.") var quality = ExportFormat.defaultQuality
    @Option(help: "The title search finds it by; by default the creation's name.") var title: String?
    @OptionGroup var entry: LibraryEntryOptions
    @Option(help: ArgumentHelp("Take down a shared link (the link or its id).", valueName: "link")) var revoke: String?
    @Flag(help: "Print the entry and its link as JSON.") var json = false

    func checkArguments() throws {
        if (name == nil) == (revoke == nil) { throw ValidationError("give a creation's name to share it, or --revoke LINK") }
    }

    func run() async throws {
        let workspace = try storeOptions.open()
        let login = try requireLogin(workspace)
        if let revoke {
            try await HubLibrary.remove(login, id: revoke, kind: .share)
            print("took down \(HubLibrary.entryID(from: revoke)): the link no longer works (caches may keep it up to 5 minutes)")
            return
        }
        let name = name ?? ""
        let picture = try workspace.library.picture(of: name, format: format, quality: quality)
        let title = if let title { title } else { try await workspace.creation(named: name).name }
        let tags = entry.tag
        let item = try await HubLibrary.publish(login, .share, picture: picture, title: title, tags: tags)
        let link = HubLibrary.link(item, on: login.hub)
        if json {
            struct Shared: Encodable { var link: String; var item: LibraryItem }
            try printEncoded(Shared(link: link, item: item))
        } else {
            print(link)
        }
    }
}

// MARK: Templates

struct TemplatePublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish", abstract: "Put a template in the hub's library, where anyone can find it and start from it; prints its id.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The template's name.") var template: String
    @Option(help: "The title search finds it by; by default the template's name.") var title: String?
    @OptionGroup var entry: LibraryEntryOptions
    @Flag(help: "Print the entry as JSON.") var json = false

    func run() async throws {
        let workspace = try storeOptions.open()
        let login = try requireLogin(workspace)
        let (json, preview, base) = try workspace.library.publishable(template: template)
        let (title, tags) = (try title ?? workspace.templates().find(template).name, entry.tag)
        let item = try await HubLibrary.publish(login, .template, picture: preview, title: title, tags: tags, template: json, base: base)
        if self.json { try printEncoded(item) } else { print("published: \(describeEntry(item))") }
    }
}

struct TemplateUnpublishCommand: AsyncParsableCommand {
    static let kind = LibraryItem.Kind.template
    static let configuration = CommandConfiguration(commandName: "unpublish", abstract: "Take a template you published out of the hub's library.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The entry's id, as `template publish` printed it.") var id: String

    func run() async throws { try await takeDown(id, Self.kind, storeOptions) }
}
