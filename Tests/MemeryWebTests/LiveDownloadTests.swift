import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import MemeryWeb

/// Downloads from a real HTTP server on loopback (the only address these tests allow, by
/// exception): redirects, limits and refusals as they happen on the wire.
@Suite struct LiveDownloadTests {
    static let picture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100))

    func server() -> some ApplicationProtocol {
        let router = Router()
        router.get("/cat.png") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: Self.picture)))
        }
        router.get("/go") { _, _ in Response(status: .found, headers: [.location: "/cat.png"]) }
        router.get("/to-private") { _, _ in Response(status: .found, headers: [.location: "http://internal.example/secret.png"]) }
        router.get("/loop") { _, _ in Response(status: .found, headers: [.location: "/loop"]) }
        router.get("/page") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"],  // the site says picture; the bytes say otherwise
                     body: .init(byteBuffer: ByteBuffer(string: "<!DOCTYPE html><html><body><img src=cat.png></body></html>")))
        }
        router.get("/big") { _, _ in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 0x41, count: 1_500_000)))
        }
        router.get("/streamed") { _, _ in
            // No Content-Length: the limit is kept while reading.
            Response(status: .ok, body: ResponseBody { writer in
                for _ in 0..<4 { try await writer.write(ByteBuffer(repeating: 0x41, count: 400_000)) }
                try await writer.finish(nil)
            })
        }
        router.get("/slow") { _, _ in
            try await Task.sleep(for: .seconds(4))  // past the 1 s limit the test sets; the server waits for it when it stops
            return Response(status: .ok)
        }
        router.get("/gone") { _, _ in Response(status: .notFound) }
        router.get("/drawing.svg") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/svg+xml"], body: .init(byteBuffer: ByteBuffer(string: Self.drawing)))
        }
        router.get("/notes.txt") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(string: "milk, eggs, tea\n")))
        }
        return Application(responder: router.buildResponder())
    }

    /// A long limit but where the limit is the point: the whole suite runs beside these tests,
    /// and a busy machine must not turn a refusal into "too slow".
    func downloader(seconds: Int = 300, maxMB: Int = 64) -> PictureDownloader {
        PictureDownloader(resolver: TableResolver(table: ["internal.example": ["10.0.0.7"]]),
                          policy: LinkAddressPolicy(allowsPrivateAddresses: false, exceptions: ["127.0.0.1"]),
                          seconds: seconds, maxMB: maxMB)
    }

    @Test func aPictureIsDownloadedThroughARedirectAndNamedByItsLink() async throws {
        try await server().test(.live) { client in
            let base = "http://127.0.0.1:\(client.port!)"
            let got = try await downloader().download("\(base)/go")
            #expect(got.data == Self.picture)
            #expect(got.url == "\(base)/go" && got.finalURL == "\(base)/cat.png" && got.fileName == "cat.png")
        }
    }

    static let drawing = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\"><rect width=\"8\" height=\"8\"/></svg>\n"

    /// A drawing is written as text, and is a picture: it is downloaded, not refused as text.
    @Test func aDrawingWrittenAsTextIsDownloaded() async throws {
        try await server().test(.live) { client in
            let got = try await downloader().download("http://127.0.0.1:\(client.port!)/drawing.svg")
            #expect(got.data == Data(Self.drawing.utf8))
        }
    }

    @Test func everyRefusalSaysWhatHappened() async throws {
        try await server().test(.live) { client in
            let base = "http://127.0.0.1:\(client.port!)"
            func refusal(_ path: String, _ downloader: PictureDownloader) async -> DownloadError? {
                await #expect(throws: DownloadError.self) { try await downloader.download(base + path) }
            }
            // A redirect is checked like the first link: the private address is never connected to.
            let cases: [(String, PictureDownloader, DownloadError)] = [
                ("/to-private", downloader(), .privateAddress(host: "internal.example", address: "10.0.0.7")),
                ("/loop", downloader(), .tooManyRedirects(url: base + "/loop", limit: 5)),
                ("/page", downloader(), .notAPicture(url: base + "/page", looksLike: "a web page (HTML)")),
                ("/notes.txt", downloader(), .notAPicture(url: base + "/notes.txt", looksLike: "text")),
                ("/big", downloader(maxMB: 1), .tooBig(url: base + "/big", limitMB: 1)),
                ("/streamed", downloader(maxMB: 1), .tooBig(url: base + "/streamed", limitMB: 1)),
                ("/gone", downloader(), .httpStatus(url: base + "/gone", status: 404, reason: "Not Found")),
                ("/slow", downloader(seconds: 1), .tooSlow(url: base + "/slow", seconds: 1)),
            ]
            for (path, downloader, expected) in cases {
                let got = await refusal(path, downloader)
                #expect(got == expected, "\(path): \(String(describing: got))")
            }
        }
    }

    @Test func aClosedPortIsSaidPlainly() async throws {
        // A port that was free a moment ago: nothing listens there.
        let error = await #expect(throws: DownloadError.self) {
            try await downloader().download("http://127.0.0.1:9/cat.png")
        }
        #expect(error?.description.contains("could not download http://127.0.0.1:9/cat.png: the site refused the connection") == true,
                "\(String(describing: error))")
    }
}
