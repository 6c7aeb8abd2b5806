import Foundation
@testable import Memery
import MemeryCore
@testable import MemeryPixels
@testable import MemeryRender
import MemeryTestSupport
import Testing

/// A long-lived process (`memery serve`) keeps decoding helpers warm for uploads: each
/// workspace its own, so two stores' (on a hub, two people's) pictures never meet in one
/// helper.
@Suite struct WarmUploadTests {
    static func png(red: UInt8) throws -> Data {
        let raster = try Raster(width: 32, height: 24)
        raster.withMutablePixels { pixels, stride in
            for offset in Swift.stride(from: 0, to: stride * 24, by: 4) {
                pixels[offset] = 0; pixels[offset + 1] = 0; pixels[offset + 2] = red; pixels[offset + 3] = 0xff
            }
        }
        return try ImageEncoder.encode(raster, as: .png)
    }

    @Test func uploadsGoToTheWorkspacesOwnWarmHelpers() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let mine = try Workspace(directory: dir.url.appendingPathComponent("mine"))
        let theirs = try Workspace(directory: dir.url.appendingPathComponent("theirs"))
        #expect(mine.pictureReader.warmHelpers.keep == 0, "a short-lived process keeps none")
        mine.keepHelpersWarm(1)
        theirs.keepHelpersWarm(1)
        for (index, red) in [UInt8(40), 200].enumerated() {
            try mine.create(name: "mine-\(index)", imageData: try Self.png(red: red), sourceName: "a.png")
            _ = try theirs.addToGarage(imageData: try Self.png(red: red), sourceName: "b.png")
        }
        let picture = try mine.pictures.render(try mine.creation(named: "mine-1"))
        #expect(picture.pixel(x: 31, y: 23) == (200, 0, 0, 0xff))
        let mineServed = mine.pictureReader.warmHelpers.served, theirsServed = theirs.pictureReader.warmHelpers.served
        #expect(mineServed.count == 2 && Set(mineServed).count == 1, "\(mineServed)")
        #expect(theirsServed.count == 2 && Set(theirsServed).isDisjoint(with: mineServed), "\(theirsServed) \(mineServed)")
    }
}
