import CGif
import Foundation

/// The frames of an animated GIF through giflib, read one record at a time and composed as
/// browsers show them: the canvas starts transparent, each frame's pixels are drawn over it
/// except its transparent index, and after the frame its disposal clears its rectangle (2) or
/// puts back what was under it (3). Parts of a frame outside the logical screen are not shown.
///
/// Rows are decoded one at a time straight onto the canvas, so memory is a canvas or two
/// however many frames the file holds. Damage plays what decodes, as browsers do: a frame
/// whose data breaks off shows the rows before the break and the next frame follows; a
/// record that is not a GIF block ends the animation there. Only a file whose first frame
/// cannot be started at all is refused.
final class GIFFrames: FrameSource {
    let width: Int
    let height: Int
    /// The image blocks the file holds (`ImageHeader`), which is what plays unless a record
    /// between them is damaged.
    let frameCount: Int
    let loops: AnimationLoops
    /// What was damaged, in plain words, once a frame has been played past damage.
    private(set) var damage: String?
    private let gif: UnsafeMutablePointer<GifFileType>
    private let input: ByteInput
    private let source: String
    private var index = 0
    private var ended = false
    /// Premultiplied ARGB, as Cairo holds it.
    private var canvas: [UInt32]
    /// One row of palette indices as giflib decodes it.
    private var row: [GifPixelType] = []
    /// What the last frame's disposal does before the next is drawn; `saved` holds the
    /// frame's rectangle as it was before the frame (disposal 3), row after row.
    private var disposal: (mode: Int32, x: Range<Int>, y: Range<Int>, saved: [UInt32]?)?

    init(_ data: Data, source: String) throws {
        self.source = source
        let header = ImageHeader.read(data)
        input = ByteInput(data)
        var error: Int32 = 0
        let read: InputFunc = { file, buffer, wanted in
            guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
            return Int32(Unmanaged<ByteInput>.fromOpaque(user).takeUnretainedValue().read(into: buffer, count: Int(wanted)))
        }
        // The input outlives the handle: both belong to this object.
        guard let gif = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), read, &error) else {
            throw RenderError.corrupt(source: source, format: "gif", reason: Self.words(error))
        }
        guard gif.pointee.SWidth > 0, gif.pointee.SHeight > 0 else {
            DGifCloseFile(gif, nil)
            throw RenderError.corrupt(source: source, format: "gif", reason: "its screen has no pixels (a side of 0)")
        }
        self.gif = gif
        width = Int(gif.pointee.SWidth)
        height = Int(gif.pointee.SHeight)
        frameCount = header.frames
        loops = header.loops
        canvas = [UInt32](repeating: 0, count: width * height)
    }

    deinit { DGifCloseFile(gif, nil) }

    func next() throws -> AnimationFrame? {
        guard let delay = try advance() else { return nil }
        let raster = try Raster(width: width, height: height)
        raster.withMutablePixels { pixels, stride in
            canvas.withUnsafeBytes { canvas in
                for y in 0..<height {
                    UnsafeMutableRawPointer(pixels + y * stride).copyMemory(from: canvas.baseAddress! + y * width * 4, byteCount: width * 4)
                }
            }
        }
        return AnimationFrame(raster: raster, delay: delay)
    }

    func skip() throws -> Bool { try advance() != nil }

    /// Draws the next frame on the canvas and gives its delay in milliseconds; nil after the
    /// last frame.
    private func advance() throws -> Int? {
        // The header's count is what the limits were checked against: never more is played.
        guard !ended, index < frameCount else { return nil }
        applyDisposal()
        var control = GraphicsControlBlock(DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { return try stop(Self.words(gif.pointee.Error)) }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { return try stop(Self.words(gif.pointee.Error)) }
                guard try draw(control) else { return try stop("its colour palette is damaged or missing (frame \(index + 1) has none)") }
                index += 1
                return Int(control.DelayTime) * 10
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { return try stop(Self.words(gif.pointee.Error)) }
                if code == GRAPHICS_EXT_FUNC_CODE, let block { _ = DGifExtensionToGCB(Int(block[0]), block + 1, &control) }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { return try stop(Self.words(gif.pointee.Error)) }
                }
            case TERMINATE_RECORD_TYPE:
                ended = true
                return nil
            default:
                return try stop("a block in it is not a GIF block")
            }
        }
    }

    /// Damage between frames: what played so far is the animation; with nothing played, the
    /// file is refused.
    private func stop(_ reason: String) throws -> Int? {
        guard index > 0 else { throw RenderError.corrupt(source: source, format: "gif", reason: reason) }
        damage = damage ?? "frame \(index + 1) on: \(reason)"
        ended = true
        return nil
    }

    private func applyDisposal() {
        guard let disposal else { return }
        if disposal.mode == DISPOSE_BACKGROUND {
            canvas.withUnsafeMutableBufferPointer { canvas in
                for y in disposal.y { canvas[(y * width + disposal.x.lowerBound)..<(y * width + disposal.x.upperBound)].update(repeating: 0) }
            }
        } else if disposal.mode == DISPOSE_PREVIOUS, let saved = disposal.saved {
            let rowWidth = disposal.x.count
            canvas.withUnsafeMutableBufferPointer { canvas in
                saved.withUnsafeBufferPointer { saved in
                    for (row, y) in disposal.y.enumerated() {
                        let start = y * width + disposal.x.lowerBound
                        _ = UnsafeMutableBufferPointer(rebasing: canvas[start..<(start + rowWidth)])
                            .update(fromContentsOf: UnsafeBufferPointer(rebasing: saved[(row * rowWidth)..<((row + 1) * rowWidth)]))
                    }
                }
            }
        }
        self.disposal = nil
    }

    /// Decodes the image whose descriptor was just read, row by row onto the canvas. A row
    /// that does not decode ends the frame there: its data is skipped to the next record.
    /// False when the frame has no palette to draw with.
    private func draw(_ control: GraphicsControlBlock) throws -> Bool {
        let frame = gif.pointee.Image
        let dataStart = input.offset
        guard let map = frame.ColorMap ?? gif.pointee.SColorMap, let colours = map.pointee.Colors else { return false }
        let palette = (0..<Int(map.pointee.ColorCount)).map { entry in
            let colour = colours[entry]
            return 0xff00_0000 | UInt32(colour.Red) << 16 | UInt32(colour.Green) << 8 | UInt32(colour.Blue)
        }
        let left = Int(frame.Left), top = Int(frame.Top), frameWidth = Int(frame.Width), frameHeight = Int(frame.Height)
        // What of the frame falls on the screen (a frame may lie partly or wholly off it).
        let xs = clamp(left, to: width)..<clamp(left + frameWidth, to: width)
        let ys = clamp(top, to: height)..<clamp(top + frameHeight, to: height)
        disposal = (control.DisposalMode, xs, ys, control.DisposalMode == DISPOSE_PREVIOUS ? saved(xs, ys) : nil)
        // Whatever is drawn, the next record starts after this frame's data sub-blocks, as the
        // header counted them: a frame giflib reads no rows of (a side of 0) leaves its data
        // unread, and its bytes must not be taken for records.
        defer { input.offset = Self.endOfSubBlocks(input.data, from: dataStart) }
        guard frameWidth > 0, frameHeight > 0 else { return true }
        if row.count < frameWidth { row = [GifPixelType](repeating: 0, count: frameWidth) }
        let transparent = Int(control.TransparentColor)
        // Interlaced rows come in four passes: every 8th from 0, every 8th from 4, every 4th
        // from 2, every 2nd from 1.
        let passes = frame.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for (first, step) in passes {
            for y in stride(from: first, to: frameHeight, by: step) {
                let decoded = row.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress, Int32(frameWidth)) }
                guard decoded == GIF_OK else {
                    damage = damage ?? "frame \(index + 1): \(Self.words(gif.pointee.Error))"
                    if index == 0 && y == first && first == 0 {
                        throw RenderError.corrupt(source: source, format: "gif", reason: Self.words(gif.pointee.Error))
                    }
                    return true
                }
                let screenY = top + y
                guard ys.contains(screenY) else { continue }
                canvas.withUnsafeMutableBufferPointer { canvas in
                    row.withUnsafeBufferPointer { row in
                        for x in xs {
                            let entry = Int(row[x - left])
                            if entry != transparent, entry < palette.count { canvas[screenY * width + x] = palette[entry] }
                        }
                    }
                }
            }
        }
        return true
    }

    private func clamp(_ value: Int, to side: Int) -> Int { min(max(value, 0), side) }

    /// The canvas's pixels in a rectangle, row after row.
    private func saved(_ xs: Range<Int>, _ ys: Range<Int>) -> [UInt32] {
        var pixels = [UInt32]()
        pixels.reserveCapacity(xs.count * ys.count)
        for y in ys { pixels += canvas[(y * width + xs.lowerBound)..<(y * width + xs.upperBound)] }
        return pixels
    }

    /// Where an image's data sub-blocks end (after the empty block), or the file's end.
    static func endOfSubBlocks(_ data: Data, from start: Int) -> Int {
        var offset = start
        while offset < data.count {
            let size = Int(data[data.startIndex + offset])
            offset += 1 + size
            if size == 0 { return offset }
        }
        return data.count
    }

    /// giflib's error in words like the other refusals.
    static func words(_ code: Int32) -> String {
        switch code {
        case D_GIF_ERR_NOT_GIF_FILE: return "its header is damaged, or it is not really a GIF"
        case D_GIF_ERR_NO_SCRN_DSCR, D_GIF_ERR_NO_IMAG_DSCR: return "a frame's description is damaged or missing"
        case D_GIF_ERR_NO_COLOR_MAP: return "its colour palette is damaged or missing"
        case D_GIF_ERR_WRONG_RECORD: return "a block in it is not a GIF block: the file is damaged there"
        case D_GIF_ERR_DATA_TOO_BIG: return "a frame holds more pixels than its size says"
        case D_GIF_ERR_NOT_ENOUGH_MEM: return "the decoder ran out of memory"
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON:
            return "the file ends before the picture does (it was probably cut short while being copied or downloaded)"
        case D_GIF_ERR_IMAGE_DEFECT: return "its compressed picture data is garbled"
        default: return DecoderWords.plain(GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)")
        }
    }
}

/// Feeds a decoder the bytes of a file held in memory.
final class ByteInput {
    let data: Data
    /// The next byte to give; a reader may move it to skip what it cannot use.
    var offset = 0
    init(_ data: Data) { self.data = data }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let taken = min(count, data.count - offset)
        guard taken > 0 else { return 0 }
        data.withUnsafeBytes { bytes in
            buffer.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, count: taken)
        }
        offset += taken
        return taken
    }
}
