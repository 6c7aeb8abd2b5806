import Foundation
import MemeryTestSupport
import MemeryCore
import Testing
@testable import MemeryPixels
@testable import MemeryRender

enum Paths {
    static let sharedAvailable = TestData.sharedAvailable
    static let golden = TestData.root.appendingPathComponent("Tests/MemeryRenderTests/Golden")
    static func edge(_ name: String) -> URL { TestData.edge(name) }
    static func example(_ name: String) -> URL { TestData.example(name) }
}

/// How far two same-sized images are apart.
struct PixelDifference {
    /// Mean absolute difference per channel (RGBA), 0...255.
    var mean: Double
    /// Share of pixels where some channel differs by more than 64.
    var badShare: Double

    init(_ a: Raster, _ b: Raster) {
        precondition(a.width == b.width && a.height == b.height)
        var total = 0.0, bad = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                let d = [abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a))]
                total += Double(d.reduce(0, +)) / 4
                if d.max()! > 64 { bad += 1 }
            }
        }
        let count = Double(a.width * a.height)
        mean = total / count
        badShare = Double(bad) / count
    }
}

func decode(_ url: URL, maxPixels: Int = ImageDecoder.defaultMaxPixels) throws -> (Raster, ImageInfo) {
    try ImageDecoder(maxPixels: maxPixels).decode(try Data(contentsOf: url), source: url.lastPathComponent)
}

/// Rotates by 90° steps (clockwise `quarterTurns`), for comparing EXIF-oriented images.
func rotated(_ raster: Raster, quarterTurns: Int) throws -> Raster {
    let turns = ((quarterTurns % 4) + 4) % 4
    let out = try Raster(width: turns % 2 == 0 ? raster.width : raster.height,
                         height: turns % 2 == 0 ? raster.height : raster.width)
    let w = raster.width, h = raster.height
    raster.withMutablePixels { src, srcStride in
        out.withMutablePixels { dst, dstStride in
            for y in 0..<h {
                for x in 0..<w {
                    let (nx, ny): (Int, Int)
                    switch turns {
                    case 1: (nx, ny) = (h - 1 - y, x)
                    case 2: (nx, ny) = (w - 1 - x, h - 1 - y)
                    case 3: (nx, ny) = (y, w - 1 - x)
                    default: (nx, ny) = (x, y)
                    }
                    let value = UnsafeRawPointer(src + y * srcStride + x * 4).loadUnaligned(as: UInt32.self)
                    UnsafeMutableRawPointer(dst + ny * dstStride + nx * 4).storeBytes(of: value, as: UInt32.self)
                }
            }
        }
    }
    return out
}

/// Compares `actual` with Golden/<name>.png within a tolerance. With MEMERY_UPDATE_GOLDEN=1
/// the golden is written instead; on a mismatch the actual picture is kept for a look.
func expectMatchesGolden(_ actual: Raster, _ name: String, maxMean: Double = 2.0, maxBadShare: Double = 0.01,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = Paths.golden.appendingPathComponent("\(name).png")
    if ProcessInfo.processInfo.environment["MEMERY_UPDATE_GOLDEN"] == "1" {
        try FileManager.default.createDirectory(at: Paths.golden, withIntermediateDirectories: true)
        try ImageEncoder.encode(actual, as: .png).write(to: url)
        return
    }
    guard FileManager.default.fileExists(atPath: url.path) else {
        Issue.record("no golden \(url.path): run the tests with MEMERY_UPDATE_GOLDEN=1 and look at it", sourceLocation: sourceLocation)
        return
    }
    let (golden, _) = try decode(url)
    guard golden.width == actual.width, golden.height == actual.height else {
        Issue.record("\(name): \(actual.width)x\(actual.height), golden is \(golden.width)x\(golden.height)", sourceLocation: sourceLocation)
        return
    }
    let difference = PixelDifference(actual, golden)
    if difference.mean > maxMean || difference.badShare > maxBadShare {
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-actual.png")
        try? ImageEncoder.encode(actual, as: .png).write(to: kept)
        Issue.record("\(name) differs from its golden: mean \(difference.mean), bad share \(difference.badShare); actual kept at \(kept.path)",
                     sourceLocation: sourceLocation)
    }
}

