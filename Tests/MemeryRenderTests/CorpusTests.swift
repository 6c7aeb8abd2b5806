import Foundation
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Every picture of Tests/Corpus (public decoder test suites, see its SOURCES.md) decodes as
/// expected.tsv says: like Pillow's decode (`pillow`), like a reviewed golden of Memery's own
/// where Pillow is not the reference (`golden`, with the reason), or refused with a message
/// (`refused`). A file added to the corpus without a line there fails the test.
struct CorpusTests {
    static let corpus = TestData.root.appendingPathComponent("Tests/Corpus")

    struct Expectation: Sendable, CustomStringConvertible {
        var path: String
        var outcome: String
        var detail: String
        var description: String { path }
    }

    static let expectations: [Expectation] = {
        guard let text = try? String(contentsOf: corpus.appendingPathComponent("expected.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            return Expectation(path: fields[0], outcome: fields[1], detail: fields.count > 2 ? fields[2] : "")
        }
    }()

    @Test func everyCorpusFileHasAnExpectation() throws {
        let images = Self.corpus.appendingPathComponent("images")
        let folders = try FileManager.default.contentsOfDirectory(atPath: images.path)
        let files = Set(try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: images.appendingPathComponent(folder).path).map { "\(folder)/\($0)" }
        })
        #expect(files.count > 100)
        #expect(files == Set(Self.expectations.map(\.path)), "images/ and expected.tsv disagree")
    }

    @Test(arguments: expectations)
    func decodesAsExpected(_ expected: Expectation) throws {
        let data = try Data(contentsOf: Self.corpus.appendingPathComponent("images/\(expected.path)"))
        let name = (expected.path as NSString).lastPathComponent
        switch expected.outcome {
        case "refused":
            let error = try #require(throws: RenderError.self) { try ImageDecoder().decode(data, source: name) }
            #expect(error.description.contains(expected.detail), "\(error)")
            #expect(error.description.hasPrefix(name), "every refusal names the file: \(error)")
        case "pillow", "golden":
            let (image, _) = try ImageDecoder().decode(data, source: name)
            let referenceData = try Data(contentsOf: Self.corpus.appendingPathComponent("reference/\(expected.path).png"))
            let (reference, _) = try ImageDecoder().decode(referenceData, source: "reference")
            #expect(image.width == reference.width && image.height == reference.height,
                    "\(image.width)x\(image.height), the reference is \(reference.width)x\(reference.height)")
            guard image.width == reference.width, image.height == reference.height else { return }
            let (mean, max) = Self.premultipliedDifference(image, reference)
            // JPEG decoders differ by a level or two (IDCT, upsampling); 8-bit premultiplied
            // storage rounds nearly transparent colours.
            #expect(mean <= 2 && max <= 16, "mean \(mean), max \(max) against the \(expected.outcome) reference")
        default:
            Issue.record("unknown outcome \(expected.outcome) in expected.tsv")
        }
    }

    /// Mean and largest difference of the premultiplied channels, so a transparent pixel's
    /// hidden colour does not count.
    static func premultipliedDifference(_ a: Raster, _ b: Raster) -> (mean: Double, max: Int) {
        var total = 0, largest = 0
        a.withMutablePixels { pa, sa in
            b.withMutablePixels { pb, sb in
                for y in 0..<a.height {
                    for x in 0..<(a.width * 4) {
                        let d = abs(Int(pa[y * sa + x]) - Int(pb[y * sb + x]))
                        total += d
                        largest = Swift.max(largest, d)
                    }
                }
            }
        }
        return (Double(total) / Double(a.width * a.height * 4), largest)
    }
}
