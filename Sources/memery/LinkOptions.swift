import ArgumentParser
import Foundation
import Memery
import MemeryWeb

/// `--url URL`, `--from-web REFERENCE` and `--max-download-mb N`: a picture taken from a link
/// or from a web search's results (new, image add, garage add).
struct LinkOptions: ParsableArguments, ArgumentChecks {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "A picture from a link (https:// or http://), downloaded within 20 s.",
        discussion: "The link is kept with the picture and shown by `show`. A web page instead of a picture is refused, saying so.",
        valueName: "url"))
    var url: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "A picture a web search found (`memery search --web WORDS` prints its reference).",
        discussion: "Its title, author, licence and page are kept with it: `show` prints them, `export --credits` credits them.",
        valueName: "reference"))
    var fromWeb: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The largest picture a link may give, in MB.", valueName: "mb"))
    var maxDownloadMb = PictureDownloader.defaultMaxMB

    /// The link or search result given, if any (for the commands' "give one of" checks).
    var given: String? { url ?? fromWeb }

    /// The picture named by --url or --from-web.
    func picture() async throws -> PictureBytes? {
        if let url { return try await picture(url) }
        guard let fromWeb else { return nil }
        return try await WebSearch.standard(site: downloader).picture(fromWeb)
    }

    /// Private addresses are allowed: this is the person's own `memery`, on their own machine,
    /// reaching their own network. (A server for other people checks them: LinkAddressPolicy.)
    var downloader: PictureDownloader { Self.ownDownloader(maxMB: maxDownloadMb) }

    static func ownDownloader(maxMB: Int) -> PictureDownloader {
        // MEMERY_DOWNLOAD_SECONDS shortens the 20 s limit, for tests of it.
        let seconds = ProcessInfo.processInfo.environment["MEMERY_DOWNLOAD_SECONDS"].flatMap(Int.init) ?? PictureDownloader.defaultSeconds
        return PictureDownloader(policy: LinkAddressPolicy(allowsPrivateAddresses: true), seconds: seconds, maxMB: maxMB)
    }

    func checkArguments() throws {
        if url != nil && fromWeb != nil { throw ValidationError("give either --url or --from-web, not both") }
        guard (1...1024).contains(maxDownloadMb) else { throw ValidationError("--max-download-mb must be between 1 and 1024, got \(maxDownloadMb)") }
    }

    /// A link's picture and where it came from. Ctrl-C stops the download; nothing is stored.
    func picture(_ url: String) async throws -> PictureBytes { try await downloader.picture(url) }
}
