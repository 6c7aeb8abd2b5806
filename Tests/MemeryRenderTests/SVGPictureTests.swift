import Foundation
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// SVG stickers (issue 32 §4): told by their first element, drawn by librsvg at a size Memery
/// chooses, from memory so that nothing outside the file is read.
@Suite struct SVGPictureTests {
    static let star = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- a test drawing -->
        <svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48">
          <rect width="64" height="48" fill="#ffcc00"/><circle cx="32" cy="24" r="16" fill="#d00000"/>
        </svg>
        """

    static func bytes(_ text: String) -> Data { Data(text.utf8) }

    @Test func anSVGIsToldByItsFirstElementNotByAnyMention() {
        #expect(ImageHeader.read(Self.bytes(Self.star)).format == "svg")
        #expect(ImageHeader.read(Self.bytes("<!DOCTYPE svg [ <!ENTITY a \"b\"> ]>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>")).format == "svg")
        #expect(ImageHeader.read(Self.bytes("\u{FEFF}  <svg width=\"2\" height=\"2\"/>")).format == "svg")
        #expect(ImageHeader.read(Self.bytes("<html><body><svg width=\"2\" height=\"2\"/></body></html>")).format == nil, "a page holding an SVG is a page")
        #expect(ImageHeader.read(Self.bytes("<?xml version=\"1.0\"?><feed>svg</feed>")).format == nil)
    }

    @Test(arguments: [
        ("width=\"64\" height=\"48\"", 1024, 768),                 // small: drawn at 1,024 on its longer side
        ("width=\"30mm\" height=\"15mm\"", 1024, 512),             // absolute units
        ("viewBox=\"0 0 24 12\"", 1024, 512),                      // no size: the viewBox's shape
        ("width=\"100%\" viewBox=\"0,0,10,40\"", 256, 1024),       // a relative size: the viewBox's
        ("width=\"2000\" height=\"1000\"", 2000, 1000),            // its own size when that is larger
        ("width=\"1000000\" height=\"500000\"", 4096, 2048),       // at most 4,096
    ])
    func itsSizeIsChosenFromItsOwn(_ attributes: String, _ width: Int, _ height: Int) {
        let header = ImageHeader.read(Self.bytes("<svg xmlns=\"http://www.w3.org/2000/svg\" \(attributes)><rect width=\"1\" height=\"1\"/></svg>"))
        #expect(header.width == width && header.height == height)
    }

    /// librsvg rounds a sub-pixel size to nothing; the size chosen from the header is used.
    @Test func aSubPixelDrawingIsDrawnAtTheChosenSize() throws {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0.3\" height=\"0.3\" viewBox=\"0 0 3 3\"><rect width=\"3\" height=\"3\" fill=\"blue\"/></svg>"
        let (raster, _) = try ImageDecoder().decode(Self.bytes(svg), source: "tiny.svg")
        #expect(raster.width == 1024 && raster.height == 1024)
        #expect(raster.pixel(x: 512, y: 512) == (0, 0, 255, 255))
    }

    @Test func itIsDrawnSharpAtTheChosenSize() throws {
        let (raster, info) = try ImageDecoder().decode(Self.bytes(Self.star), source: "star.svg")
        #expect(info.format == "svg" && raster.width == 1024 && raster.height == 768)
        #expect(raster.pixel(x: 512, y: 384) == (0xd0, 0, 0, 255), "the circle's middle")
        #expect(raster.pixel(x: 10, y: 10) == (0xff, 0xcc, 0, 255), "the background")
        // The circle's edge, 256 px from the middle, is sharp: two pixels in, two out.
        #expect(raster.pixel(x: 512 + 254, y: 384) == (0xd0, 0, 0, 255))
        #expect(raster.pixel(x: 512 + 258, y: 384) == (0xff, 0xcc, 0, 255))
    }

    @Test func nothingOutsideTheFileIsRead() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let secret = dir.url.appendingPathComponent("secret.png")
        let red = try Raster(width: 8, height: 8)
        red.withMutablePixels { pixels, stride in
            for y in 0..<8 { for x in 0..<8 { UnsafeMutableRawPointer(pixels + y * stride).storeBytes(of: 0xffff_0000 as UInt32, toByteOffset: x * 4, as: UInt32.self) } }
        }
        try ImageEncoder.encode(red, as: .png).write(to: secret)
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">
              <image width="64" height="64" xlink:href="file://\(secret.path)"/>
              <image width="64" height="64" href="secret.png"/>
              <image width="64" height="64" href="http://127.0.0.1:9/secret.png"/>
            </svg>
            """
        let (raster, _) = try ImageDecoder().decode(Self.bytes(svg), source: "\(dir.url.path)/refers.svg")
        #expect(raster.pixel(x: 512, y: 512).a == 0, "no referenced picture was drawn")
        let entity = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [ <!ENTITY x SYSTEM \"file://\(secret.path)\"> ]>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\"><text>&x;</text></svg>"
        let error = try #require(throws: RenderError.self) { try ImageDecoder().decode(Self.bytes(entity), source: "x.svg") }
        #expect(error.description == "x.svg is a damaged SVG image: it uses an XML entity the file does not define (entities from outside the file are never read)")
    }

    @Test func aDrawingIsKeptAsThePictureTheHelperDrew() throws {
        let (kept, raster, info) = try IsolatedDecoder(decoder: ImageDecoder()).decodeForKeeping(Self.bytes(Self.star), source: "star.svg")
        #expect(info.format == "png" && info.width == 1024 && kept.starts(with: Completeness.pngSignature))
        #expect(raster.pixel(x: 512, y: 384) == (0xd0, 0, 0, 255))
        // One that reached the store another way is not drawn in this process.
        let error = try #require(throws: RenderError.self) { try ImageDecoder().decodeStored(Self.bytes(Self.star), source: "kept.svg") }
        #expect(error.description.hasPrefix("kept.svg uses a feature of the SVG format that the decoder does not read"))
    }

    /// A drawing made to take long is stopped at the helper's processor limit (1 s here; it
    /// needs over 100 s on this machine type).
    @Test func aDrawingMadeToTakeForeverIsStopped() throws {
        let rects = (0..<200).map { "<rect x=\"\($0)\" y=\"\($0)\" width=\"3000\" height=\"3000\" fill=\"red\" filter=\"url(#f)\"/>" }.joined()
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4000\" height=\"4000\"><filter id=\"f\"><feGaussianBlur stdDeviation=\"900\"/></filter>\(rects)</svg>"
        let error = try #require(throws: RenderError.self) { try IsolatedDecoder(decoder: ImageDecoder(), cpuSeconds: 1).decode(Self.bytes(svg), source: "slow.svg") }
        #expect(error == .decodeTooSlow(source: "slow.svg", seconds: 1))
    }
}
