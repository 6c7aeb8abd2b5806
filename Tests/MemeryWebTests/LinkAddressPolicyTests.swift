import Testing
@testable import MemeryWeb

/// Which addresses a link may lead to on a server for other people: none of its own network's.
@Suite struct LinkAddressPolicyTests {
    @Test(arguments: [
        ("1.1.1.1", true), ("93.184.216.34", true), ("172.32.0.1", true), ("100.128.0.1", true),
        ("2606:4700::1111", true), ("::ffff:8.8.8.8", true),
        ("127.0.0.1", false), ("127.255.255.254", false), ("10.0.0.7", false), ("172.16.0.1", false), ("172.31.255.255", false),
        ("192.168.1.1", false), ("169.254.169.254", false), ("100.64.0.1", false), ("0.0.0.0", false), ("255.255.255.255", false),
        ("224.0.0.1", false), ("198.18.0.1", false), ("192.0.2.10", false),
        ("::1", false), ("::", false), ("fe80::1", false), ("fd00:ec2::254", false), ("fc00::1", false), ("ff02::1", false),
        ("2001:db8::1", false), ("2002:7f00:1::", false), ("::ffff:127.0.0.1", false), ("::ffff:169.254.169.254", false),
        ("64:ff9b::a9fe:a9fe", false), ("::127.0.0.1", false),
        ("localhost", false), ("", false), ("1.1.1", false),
    ])
    func onlyPublicAddressesArePublic(_ address: String, _ expected: Bool) {
        #expect(LinkAddressPolicy.isPublic(address) == expected, "\(address)")
    }

    @Test func theOwnersChoiceAndExceptionsWidenIt() {
        #expect(LinkAddressPolicy(allowsPrivateAddresses: true).allows("10.0.0.7"))
        #expect(!LinkAddressPolicy(allowsPrivateAddresses: false).allows("10.0.0.7"))
        #expect(LinkAddressPolicy(allowsPrivateAddresses: false, exceptions: ["10.0.0.7"]).allows("10.0.0.7"))
    }
}

/// A resolver that answers from a table: no DNS, and nothing connects to what it names.
struct TableResolver: HostResolving {
    var table: [String: [String]]
    func addresses(of host: String) async throws -> [String] {
        guard let found = table[host] else { throw DownloadError.cannotResolve(host: host, reason: "no such name in the test's table") }
        return found
    }
}

@Suite struct CheckedAddressTests {
    let closed = LinkAddressPolicy(allowsPrivateAddresses: false)

    @Test func aNameThatResolvesToTheMetadataAddressIsRefusedBeforeAnyConnection() async {
        let downloader = PictureDownloader(resolver: TableResolver(table: ["pictures.example": ["169.254.169.254"]]), policy: closed)
        await #expect(throws: DownloadError.privateAddress(host: "pictures.example", address: "169.254.169.254")) {
            try await downloader.download("http://pictures.example/cat.jpg")
        }
    }

    @Test func aLinkWrittenAsAPrivateAddressIsRefusedWithoutAskingTheResolver() async {
        let downloader = PictureDownloader(resolver: TableResolver(table: [:]), policy: closed)
        for link in ["http://127.0.0.1:8470/api/users", "http://[::1]/x.png", "https://10.1.2.3/", "http://[::ffff:127.0.0.1]/"] {
            let error = await #expect(throws: DownloadError.self) { try await downloader.download(link) }
            guard case .privateAddress = error else { Issue.record("\(link): \(String(describing: error))"); continue }
        }
    }

    @Test func aNameWithPublicAndPrivateAddressesConnectsOnlyToAPublicOne() async throws {
        let downloader = PictureDownloader(resolver: TableResolver(table: ["mixed.example": ["10.0.0.7", "93.184.216.34"]]), policy: closed)
        #expect(try await downloader.checkedAddress(of: "mixed.example") == "93.184.216.34")
    }

    @Test(arguments: [
        ("ftp://example.com/cat.jpg", "is a ftp: link; Memery downloads pictures over https:// or http:// only"),
        ("file:///etc/passwd", "is a file: link"),
        ("cat.jpg", "is not a link"),
        ("http:///nohost", "is not a link"),
    ])
    func onlyHTTPAndHTTPSLinksAreTaken(_ link: String, _ words: String) async {
        let downloader = PictureDownloader(resolver: TableResolver(table: [:]), policy: closed)
        let error = await #expect(throws: DownloadError.self) { try await downloader.download(link) }
        #expect(error?.description.contains(words) == true, "\(String(describing: error))")
    }
}
