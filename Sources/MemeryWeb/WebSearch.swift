import Foundation
import MemeryCore

/// Searching the open web for pictures: every provider at once, each within the time limit,
/// each answering with its pictures or with what went wrong, so that one failing never hides
/// the others' results.
public struct WebSearch: Sendable {
    public var providers: [any WebImageProvider]
    /// Fetches the providers' answers and the pictures, within Memery's limits and checks.
    public var site: PictureDownloader

    public init(providers: [any WebImageProvider], site: PictureDownloader) {
        self.providers = providers; self.site = site
    }

    /// Openverse and Wikimedia Commons. Their addresses are settings (MEMERY_OPENVERSE_URL,
    /// MEMERY_COMMONS_URL), so that tests answer from a local server with the providers'
    /// documented shapes.
    public static func standard(site: PictureDownloader, environment: [String: String] = ProcessInfo.processInfo.environment) -> WebSearch {
        WebSearch(providers: [
            OpenverseProvider(base: environment["MEMERY_OPENVERSE_URL"] ?? "https://api.openverse.org"),
            CommonsProvider(base: environment["MEMERY_COMMONS_URL"] ?? "https://commons.wikimedia.org"),
        ], site: site)
    }

    /// One provider's part of an answer: its pictures, or why there are none.
    public struct Outcome: Sendable {
        public var provider: String
        public var label: String
        public var images: [WebImage]
        /// What went wrong, in plain words; also set ("found nothing") when none matched.
        public var problem: String?
        /// True when the provider answered and simply matched nothing (not a failure).
        public var answered: Bool { images.isEmpty ? problemIsNoMatch : true }
        var problemIsNoMatch = false
    }

    public func search(_ words: String, count: Int = 20) async -> [Outcome] {
        let site = self.site
        return await withTaskGroup(of: (Int, Outcome).self) { group in
            for (index, provider) in providers.enumerated() {
                group.addTask {
                    do {
                        let images = try await provider.search(words, count: count, site: site)
                        return (index, Outcome(provider: provider.name, label: provider.label, images: images,
                                               problem: images.isEmpty ? "\(provider.label) found no pictures for “\(words)”" : nil,
                                               problemIsNoMatch: images.isEmpty))
                    } catch {
                        return (index, Outcome(provider: provider.name, label: provider.label, images: [],
                                               problem: Self.words(error, provider: provider.label, seconds: site.seconds)))
                    }
                }
            }
            var outcomes = [(Int, Outcome)]()
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// A picture by the reference a search printed ("openverse:ID", "commons:File:Cat.jpg").
    public func image(_ reference: String) async throws -> WebImage {
        guard let colon = reference.firstIndex(of: ":"),
              let provider = providers.first(where: { $0.name == reference[..<colon].lowercased() }) else {
            throw WebSearchError.unknownProvider(reference: reference, known: providers.map(\.name))
        }
        do {
            return try await provider.image(id: String(reference[reference.index(after: colon)...]), site: site)
        } catch let error as DownloadError {
            throw WebSearchError.providerFailed(Self.words(error, provider: provider.label, seconds: site.seconds))
        }
    }

    /// A search result taken: its picture downloaded, with its page, author and licence kept
    /// as where it came from.
    public func picture(_ reference: String) async throws -> PictureBytes {
        let image = try await image(reference)
        let got = try await site.download(image.imageURL)
        return PictureBytes(data: got.data, name: got.fileName, origin: image.origin)
    }

    /// A provider's failure in the words a person needs.
    static func words(_ error: any Error, provider: String, seconds: Int) -> String {
        switch error {
        case DownloadError.tooSlow: "\(provider) did not answer within \(seconds) s; try again later"
        case DownloadError.cannotResolve, DownloadError.cannotConnect: "could not reach \(provider): \(error)"
        case let DownloadError.httpStatus(_, status, reason): "\(provider) answered \(status) \(reason); try again later"
        default: "\(error)"
        }
    }
}

public enum WebSearchError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownProvider(reference: String, known: [String])
    case noSuchImage(reference: String)
    case providerFailed(String)

    public var description: String {
        switch self {
        case let .unknownProvider(reference, known):
            "\"\(reference)\" is not a web search result: give one as `memery search --web` prints it (\(known.map { "\($0):…" }.joined(separator: ", ")))"
        case let .noSuchImage(reference):
            "\(reference) is not a picture its site knows (any more): search again"
        case let .providerFailed(words):
            words
        }
    }
}
