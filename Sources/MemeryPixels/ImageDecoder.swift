import CGdkPixbuf
import Foundation
import MemeryCore

/// What the decoder learnt about an image.
public struct ImageInfo: Sendable, Equatable, Codable {
    /// gdk-pixbuf's name for the format: png, jpeg, gif, bmp, tiff, webp, avif, ...
    public var format: String
    /// Size after EXIF orientation.
    public var width: Int
    public var height: Int
    /// More than 1 for an animated GIF or WebP.
    public var frames = 1

    public init(format: String, width: Int, height: Int, frames: Int = 1) {
        self.format = format; self.width = width; self.height = height; self.frames = frames
    }
}

/// Decodes image bytes with gdk-pixbuf: the formats Memery accepts (others on request), EXIF
/// orientation applied; an animated GIF or WebP through giflib or libwebp (`Animations`),
/// which gives its first frame and, for a picture from outside, decodes every frame. The header is read first (`ImageHeader`): a format not accepted, a
/// variant the decoder draws wrong, a size over the limits or too many frames is refused
/// before any loader runs; and a loader told size 0 in `size-prepared` stops without
/// allocating, for what a header did not tell.
public struct ImageDecoder: Sendable {
    public static let defaultMaxPixels = Canvas.defaultMaxPixels
    public var maxPixels: Int
    /// Formats (gdk-pixbuf's names) accepted besides the defaults; "all" also lets through
    /// the variants the decoder is known to draw wrong.
    public var alsoAccepted: Set<String>

    /// The formats accepted by default: those the tests compare with a reference decode.
    public static let acceptedFormats: Set<String> = ["png", "jpeg", "gif", "webp", "bmp", "tiff", "avif", "ico", "pnm", "tga", "svg"]
    /// Cairo draws nothing wider or taller.
    public static let maxSide = 32_767
    /// Frames are decoded one at a time onto one canvas, so memory follows the canvas (held to
    /// `maxPixels`) whatever the count; these two bound time. Every frame of an import is
    /// decoded in the helper within its processor limit, but every frame of an export is also
    /// composed, drawn on and encoded here: 10,000 frames is over 11 minutes at 15 a second,
    /// and a 1280x720 GIF of 600 frames of noise (553 megapixels, 108 MB) imported in 3.8 s
    /// and exported in 22 s as GIF, 80 s as WebP on two cores (2026-11-25), so a gigapixel
    /// stays within a few minutes at worst; a real clip of that size exports in 1.5 s.
    public static let defaultMaxFrames = 10_000
    public static let defaultMaxAnimationPixels = 1_000_000_000
    /// Frames an animation may hold: every one is composed, drawn on and encoded.
    public var maxFrames: Int
    /// Pixels over all of an animation's frames (frames times the canvas): what rendering it
    /// costs in time.
    public var maxAnimationPixels: Int

    public init(maxPixels: Int = ImageDecoder.defaultMaxPixels, alsoAccepted: Set<String> = [],
                maxFrames: Int = ImageDecoder.defaultMaxFrames, maxAnimationPixels: Int = ImageDecoder.defaultMaxAnimationPixels) {
        self.maxPixels = maxPixels
        self.alsoAccepted = alsoAccepted
        self.maxFrames = maxFrames
        self.maxAnimationPixels = maxAnimationPixels
    }

    /// The media type a browser shows these bytes as, judged by their signature: JPEG, PNG,
    /// GIF, WebP or AVIF; nil for anything else (an SVG too: it can carry script).
    public static func browserMediaType(of data: Data) -> String? {
        switch ImageHeader.read(data).format {
        case "jpeg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "avif": "image/avif"
        default: nil
        }
    }

    /// The limits from `MEMERY_MAX_MEGAPIXELS`, `MEMERY_MAX_FRAMES` and
    /// `MEMERY_MAX_ANIMATION_MEGAPIXELS`, and the extra formats from `MEMERY_IMAGE_FORMATS`
    /// (comma-separated, or `all`) when set, else the defaults.
    public static func fromEnvironment() -> ImageDecoder {
        let environment = ProcessInfo.processInfo.environment
        var decoder = ImageDecoder()
        func megapixels(_ name: String) -> Int? {
            guard let text = environment[name], let mp = Double(text), mp > 0, mp < 1e9 else { return nil }
            return Int(mp * 1_000_000)
        }
        decoder.maxPixels = megapixels("MEMERY_MAX_MEGAPIXELS") ?? decoder.maxPixels
        decoder.maxAnimationPixels = megapixels("MEMERY_MAX_ANIMATION_MEGAPIXELS") ?? decoder.maxAnimationPixels
        if let text = environment["MEMERY_MAX_FRAMES"], let frames = Int(text), frames > 0 { decoder.maxFrames = frames }
        if let formats = environment["MEMERY_IMAGE_FORMATS"] {
            decoder.alsoAccepted = Set(formats.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        }
        return decoder
    }

    /// Decodes a picture that comes from outside (an import); `source` names it in errors.
    /// Its format and variant must be accepted, and its size within the limits.
    public func decode(_ data: Data, source: String) throws -> (Raster, ImageInfo) {
        try decode(data, source: source, fromOutside: true)
    }

    /// Makes the raster decoded pixels go into: a new one, or (in the helper) one over the
    /// memory this process shares with its caller.
    typealias RasterMaker = (_ width: Int, _ height: Int) throws -> Raster

    /// Decodes a picture the store already keeps (to render it): only the limits apply, so
    /// a creation made before a format stopped being accepted still renders.
    public func decodeStored(_ data: Data, source: String) throws -> (Raster, ImageInfo) {
        try decode(data, source: source, fromOutside: false)
    }

    func decode(_ data: Data, source: String, fromOutside: Bool, makeRaster: RasterMaker = { try Raster(width: $0, height: $1) }) throws -> (Raster, ImageInfo) {
        guard !data.isEmpty else { throw RenderError.empty(source: source) }
        let header = ImageHeader.read(data)
        try admit(header, source: source, fromOutside: fromOutside)
        // A PNG whose picture is whole and whose end is damaged: the picture, ended afresh.
        if header.format == "png", let mended = PNGTail.mended(data) {
            return try decode(mended, source: source, fromOutside: fromOutside, makeRaster: makeRaster)
        }
        if let (format, reason) = Completeness.problem(data) { throw RenderError.corrupt(source: source, format: format, reason: reason) }
        // An icon: its largest picture alone (the loader would take a smaller one).
        if header.format == "ico" {
            guard let largest = IconEntries.largest(data) else {
                throw RenderError.corrupt(source: source, format: "ico", reason: "its directory names no picture inside the file")
            }
            // Already one entry with its data after the directory (as made here): the loader's.
            if largest != data { return try decode(largest, source: source, fromOutside: fromOutside, makeRaster: makeRaster) }
        }
        if Animations.isAnimated(header), let format = header.format {
            return try firstFrame(data, format: format, source: source, checkingEvery: fromOutside)
        }
        if header.format == "jpeg", let raster = try JPEGDecoder.decode(data, into: makeRaster) {
            return (raster, ImageInfo(format: "jpeg", width: raster.width, height: raster.height))
        }
        let pixbuf = try loadPixbuf(header.format == "bmp" ? BMPLayout.mended(data) ?? data : data, source: source, format: header.loader,
                                 vector: header.format == "svg",
                                 vectorSize: header.format == "svg" ? header.width.flatMap { w in header.height.map { (w, $0) } } : nil)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf.pointer)) }
        let raster = try PixelConversion.raster(from: pixbuf.pointer, alreadyPremultiplied: header.premultipliedAlpha,
                                                ignoringAlpha: header.fourthChannelIsNotAlpha, into: makeRaster)
        return (raster, ImageInfo(format: pixbuf.format, width: raster.width, height: raster.height))
    }

    /// The first frame of an animation; with `checkingEvery`, after every frame has decoded,
    /// so that a picture kept from outside renders whole later.
    private func firstFrame(_ data: Data, format: String, source: String, checkingEvery: Bool) throws -> (Raster, ImageInfo) {
        let frames = try Animations.open(data, format: format, source: source)
        try checkSize(frames.width, frames.height, source: source)
        guard let first = try frames.next() else { throw RenderError.corrupt(source: source, format: format, reason: "it holds no frame") }
        if checkingEvery { while try frames.skip() {} }
        return (first.raster, ImageInfo(format: format, width: frames.width, height: frames.height, frames: frames.frameCount))
    }

    /// Refuses, from the header alone, what would be refused after decoding or drawn wrong:
    /// a format not accepted, a known-bad variant, a size with no pixels or over the limits,
    /// too many frames. Nothing is decoded, so nothing is allocated for them.
    package func admit(_ header: ImageHeader, source: String, fromOutside: Bool = true) throws {
        if fromOutside, header.notAPicture { throw RenderError.notAPicture(source: source, kind: header.kind) }
        if fromOutside, !alsoAccepted.contains("all") {
            if let format = header.format {
                if !Self.acceptedFormats.contains(format), !alsoAccepted.contains(format) {
                    throw RenderError.notAccepted(source: source, kind: header.kind, format: format, why: Self.why[format] ?? "it is not tested with Memery")
                }
            } else if alsoAccepted.isSubset(of: ImageHeader.signedFormats) {
                // No signature Memery knows: only a decoder's sniffing would tell, by decoding.
                // A format it cannot tell named in MEMERY_IMAGE_FORMATS lets them try.
                throw RenderError.unsupportedFormat(source: source, known: Self.acceptedFormats.sorted())
            }
        }
        if header.format == "svg", !fromOutside {
            // Drawings are kept as the picture the helper drew (`IsolatedDecoder.decodeForKeeping`):
            // one in the store came from elsewhere, and is not drawn in this process.
            throw RenderError.unsupportedFeature(source: source, format: "svg", feature: "a drawing kept as it is; Memery keeps the picture drawn of it on import")
        }
        if let damage = header.damage { throw RenderError.corrupt(source: source, format: header.format, reason: damage) }
        if let feature = header.unreadable { throw RenderError.unsupportedFeature(source: source, format: header.format, feature: feature) }
        if let width = header.width, let height = header.height { try checkSize(width, height, source: source) }
        if header.frames > maxFrames { throw RenderError.tooManyFrames(source: source, frames: header.frames, limit: maxFrames) }
        if header.frames > 1, let width = header.width, let height = header.height, header.frames * width * height > maxAnimationPixels {
            throw RenderError.tooMuchAnimation(source: source, frames: header.frames, width: width, height: height, limit: maxAnimationPixels)
        }
        // Within the limits, a variant the decoder gets wrong.
        if fromOutside, !alsoAccepted.contains("all"), let reason = header.refusal {
            throw RenderError.wrongVariant(source: source, kind: header.kind, reason: reason)
        }
    }

    private static let why = [
        "icns": "the decoder gives a smaller picture than the largest the icon holds, and unpacks it before any size is checked",
        "qtif": "it wraps another picture, which the decoder unpacks whole before any size is checked",
        "ani": "it is an animated cursor",
    ]

    /// The largest file a picture within the pixel limit can be: 8 bytes a pixel (a 16-bit
    /// RGBA TIFF, uncompressed) and room for metadata. A bigger file is refused before it
    /// is read into memory.
    public var maxFileBytes: Int { maxPixels * 8 + 64 << 20 }

    public func checkFileSize(_ bytes: Int, source: String) throws {
        if bytes > maxFileBytes { throw RenderError.fileTooLarge(source: source, bytes: bytes, limit: maxFileBytes) }
    }

    /// A declared size Memery can hold: at least a pixel each way, sides Cairo can draw, and
    /// no more pixels than the limit.
    func checkSize(_ width: Int, _ height: Int, source: String) throws {
        if width <= 0 || height <= 0 {
            throw RenderError.badSize(source: source, width: width, height: height, reason: "a picture needs at least one pixel each way")
        }
        if width > Self.maxSide || height > Self.maxSide {
            throw RenderError.badSize(source: source, width: width, height: height,
                                      reason: "a side longer than \(Self.maxSide) pixels is more than Memery can draw")
        }
        if width * height > maxPixels { throw RenderError.tooLarge(source: source, width: width, height: height, limit: maxPixels) }
    }

    /// The names of the formats the installed loaders read.
    public static func readableFormats() -> [String] {
        var names = [String]()
        var list = gdk_pixbuf_get_formats()
        let head = list
        while let node = list {
            if let format = node.pointee.data.map(OpaquePointer.init),
               let name = gdk_pixbuf_format_get_name(format) {
                names.append(String(cString: name))
                g_free(name)
            }
            list = node.pointee.next
        }
        g_slist_free(head)
        return names.sorted()
    }

    /// Watches `size-prepared` and stops the loader when the declared size is over the limit.
    private final class SizeGuard {
        let maxPixels: Int
        /// A drawing (SVG): its size is chosen (`SVGPicture.rasterSize`), not refused: the one
        /// its header gave when it did (librsvg rounds a sub-pixel size to 0), else from
        /// the size librsvg reads.
        let vector: Bool
        let chosen: (width: Int, height: Int)?
        var declared: (width: Int, height: Int)?
        var refused = false
        init(maxPixels: Int, vector: Bool, chosen: (width: Int, height: Int)?) {
            self.maxPixels = maxPixels; self.vector = vector; self.chosen = chosen
        }
    }

    /// `format`: the loader the header names (`ImageHeader.loader`); else the loaders sniff.
    private func loadPixbuf(_ data: Data, source: String, format known: String?, vector: Bool = false,
                            vectorSize: (width: Int, height: Int)? = nil) throws -> (pointer: OpaquePointer, format: String) {
        let typed = known.flatMap { name in gdk_pixbuf_loader_new_with_type(name, nil) }
        guard let loader = typed ?? gdk_pixbuf_loader_new() else { throw RenderError.outOfMemory(width: 0, height: 0) }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }

        let sizeGuard = SizeGuard(maxPixels: maxPixels, vector: vector, chosen: vectorSize)
        let unmanaged = Unmanaged.passRetained(sizeGuard)
        defer { unmanaged.release() }
        let onSize: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { loader, width, height, context in
            guard let context else { return }
            let sizeGuard = Unmanaged<SizeGuard>.fromOpaque(context).takeUnretainedValue()
            if sizeGuard.vector, let size = sizeGuard.chosen ?? SVGPicture.rasterSize(width: Double(width), height: Double(height)) {
                sizeGuard.declared = size
                gdk_pixbuf_loader_set_size(loader, Int32(size.width), Int32(size.height))
                return
            }
            sizeGuard.declared = (Int(width), Int(height))
            if width <= 0 || height <= 0 || width > Int32(ImageDecoder.maxSide) || height > Int32(ImageDecoder.maxSide)
                || Int(width) * Int(height) > sizeGuard.maxPixels {
                sizeGuard.refused = true
                gdk_pixbuf_loader_set_size(loader, 0, 0)  // loaders stop at a size of 0
            }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(loader), "size-prepared",
                              unsafeBitCast(onSize, to: GCallback.self), unmanaged.toOpaque(), nil, GConnectFlags(rawValue: 0))

        var error: UnsafeMutablePointer<GError>?
        let wrote = data.withUnsafeBytes { bytes in
            gdk_pixbuf_loader_write(loader, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), gsize(bytes.count), &error)
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        let format = Self.formatName(loader)
        defer {
            if let error { g_error_free(error) }
            if let closeError { g_error_free(closeError) }
        }

        if sizeGuard.refused, let size = sizeGuard.declared {
            try checkSize(size.width, size.height, source: source)
        }
        if wrote == 0 || closed == 0 {
            let message = (error ?? closeError).map { String(cString: $0.pointee.message) } ?? "unknown decoder error"
            // The loader may only give up on sniffing the type at close.
            let first = error ?? closeError
            if format == nil, first?.pointee.domain == gdk_pixbuf_error_quark(),
               first?.pointee.code == Int32(GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue) {
                throw RenderError.unsupportedFormat(source: source, known: Self.acceptedFormats.sorted())
            }
            if DecoderWords.meansUnsupported(message) {
                throw RenderError.unsupportedFeature(source: source, format: format, feature: DecoderWords.feature(message))
            }
            throw RenderError.corrupt(source: source, format: format, reason: DecoderWords.plain(message))
        }
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw RenderError.corrupt(source: source, format: format, reason: "no picture could be decoded")
        }
        // The PNG and WebP loaders ignore the orientation those files record; say it for them.
        if let turn = EmbeddedOrientation.read(data, format: format ?? ""), gdk_pixbuf_get_option(pixbuf, "orientation") == nil {
            gdk_pixbuf_set_option(pixbuf, "orientation", String(turn))
        }
        // Returns a new reference: the upright image (or the same one, referenced again).
        guard let upright = gdk_pixbuf_apply_embedded_orientation(pixbuf) else {
            throw RenderError.outOfMemory(width: Int(gdk_pixbuf_get_width(pixbuf)), height: Int(gdk_pixbuf_get_height(pixbuf)))
        }
        return (upright, format ?? "unknown")
    }

    private static func formatName(_ loader: UnsafeMutablePointer<GdkPixbufLoader>) -> String? {
        guard let format = gdk_pixbuf_loader_get_format(loader), let name = gdk_pixbuf_format_get_name(format) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }
}
