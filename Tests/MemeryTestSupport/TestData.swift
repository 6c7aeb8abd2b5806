import Foundation

/// Where the tests find their inputs: the package's own files, and the team's shared test
/// images in ../shared/testdata/images (tests that need them skip when it is absent).
public enum TestData {
    /// The package root, found from this file's place in Tests/MemeryTestSupport.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let shared = root.deletingLastPathComponent().appendingPathComponent("shared/testdata/images")
    public static let sharedAvailable = FileManager.default.fileExists(atPath: shared.path)

    public static func edge(_ name: String) -> URL { shared.appendingPathComponent("edge/\(name)") }
    public static func photo(_ name: String) -> URL { shared.appendingPathComponent("photos/\(name)") }
    /// A picture committed under examples/, there even without ../shared.
    public static func example(_ name: String = "chelsea.png") -> URL { root.appendingPathComponent("examples/\(name)") }
}

/// A fresh directory under the system's temporary folder, removed by `cleanup()`.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("memery-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func cleanup() { try? FileManager.default.removeItem(at: url) }
}

/// PNG bytes whose header declares `width` x `height`; the pixel data is a stub. A
/// decompression bomb in a hundred bytes.
public func pngDeclaring(width: UInt32, height: UInt32) -> Data {
    Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + pngChunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0])
        + pngChunk("IDAT", [0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1]) + pngChunk("IEND", []))
}

/// One PNG chunk: length, type, body, CRC.
public func pngChunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    var crc: UInt32 = 0xffff_ffff
    for byte in typed {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    return bigEndian(UInt32(body.count)) + typed + bigEndian(~crc)
}

public func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
public func littleEndian(_ v: UInt32) -> [UInt8] { bigEndian(v).reversed() }

/// A small seeded generator (SplitMix64), so a failing random test can be run again.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The JSON edit examples the docs show: every line of README.md and docs/*.md that is a
/// JSON object with an "op", as written (shell quoting around README's lines removed).
public enum DocumentedEdits {
    public static func lines() throws -> [(file: String, line: String)] {
        var files = [TestData.root.appendingPathComponent("README.md")]
        let docs = TestData.root.appendingPathComponent("docs")
        files += try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
        var found = [(String, String)]()
        for file in files {
            for raw in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                // README quotes its lines for the shell: '{"op":…}' \ or '{…}' | memery apply
                var pieces = [Substring]()
                if raw.hasPrefix("{\"op\"") {
                    pieces = [raw]
                } else {
                    pieces = raw.split(separator: "'").filter { $0.hasPrefix("{\"op\"") }
                }
                found += pieces.map { (file.lastPathComponent, String($0)) }
            }
        }
        return found
    }
}
