import MemeryHelperIPC
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Decodes pictures that come from outside in a helper process with a memory and processor
/// limit (`ImageWorker`), so that a file made to hurt — a decompression bomb, a loader that
/// spins, a crash — costs a bounded moment and an error, never this process. The header is
/// still read here first: what it refuses never starts a helper.
public struct IsolatedDecoder: Sendable {
    public var decoder: ImageDecoder
    public var helper: String
    /// Processor seconds a decode may take: 30, or MEMERY_DECODE_SECONDS.
    public var cpuSeconds: Int
    /// Megabytes the helper may hold, when MEMERY_DECODE_MEGABYTES sets it; else enough for
    /// any picture within the pixel limit (`memoryBudget`).
    public var megabytes: Int?
    /// Helpers kept running between pictures (a long-lived process's); nil, or none kept:
    /// each decode starts a helper of its own.
    public var warm: WarmHelpers?
    /// A fail point of the tests: processor time the helper spends before decoding.
    var spendMilliseconds: Int?
    /// Told once the helper is running with its picture (not told when the picture is refused
    /// before one starts): a caller that started a decode ahead may go on from there.
    public var whenStarted: (@Sendable () -> Void)?

    public init(decoder: ImageDecoder, helper: String = HelperProcess.helperBinary,
                cpuSeconds: Int = Self.setting("MEMERY_DECODE_SECONDS") ?? 30,
                megabytes: Int? = Self.setting("MEMERY_DECODE_MEGABYTES"), warm: WarmHelpers? = nil) {
        self.decoder = decoder
        self.helper = helper
        self.cpuSeconds = cpuSeconds
        self.megabytes = megabytes
        self.warm = warm
    }

    public static func setting(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init).map { max(1, $0) }
    }

    /// What the helper may hold: the bytes read, the decoder's picture and its converted copy
    /// at the pixel limit (up to 8 bytes a pixel for 16-bit pictures; the copy is in memory
    /// shared with this process when it can be, which the limit does not count) — or, for an
    /// animation, its first frame, the canvas the next are composed on and the one a
    /// disposal puts back — and the runtime.
    func memoryBudget(forInput bytes: Int) -> Int {
        if let megabytes { return megabytes << 20 }
        return bytes + decoder.maxPixels * 12 + 512 << 20
    }

    public func decode(_ data: Data, source: String) throws -> (Raster, ImageInfo) {
        let (raster, info, _) = try decode(data, source: source, streaming: nil)
        return (raster, info)
    }

    /// Whether the bytes are a drawing (SVG), which is kept as the picture drawn of it.
    public static func isDrawing(_ data: Data) -> Bool { ImageHeader.read(data).format == "svg" }

    /// `decode`, and the bytes to keep: the file's own, except for a drawing (SVG), kept as
    /// the PNG the helper drew of it, so that no SVG is ever drawn outside the helper.
    public func decodeForKeeping(_ data: Data, source: String) throws -> (data: Data, raster: Raster, info: ImageInfo) {
        let (raster, info) = try decode(data, source: source)
        guard info.format == "svg" else { return (data, raster, info) }
        let drawn = try ImageEncoder.encode(raster, as: .png)
        return (drawn, raster, ImageInfo(format: "png", width: raster.width, height: raster.height))
    }

    /// `decode`, telling `consumer` (on this thread) of the rows as the helper decodes them
    /// into a raster of the size expected. `streamed`: whether the raster returned is the one
    /// the consumer was told of (not when the picture came out another size).
    /// `whenDecoded` is called as soon as the helper has decoded the picture, before the
    /// consumer is told of the last rows.
    public func decode(_ data: Data, source: String, expecting width: Int, _ height: Int, streamingTo consumer: RowsConsumer,
                       whenDecoded: (ImageInfo) -> Void = { _ in }) throws -> (raster: Raster, info: ImageInfo, streamed: Bool) {
        try decode(data, source: source, streaming: (width, height, consumer), whenDecoded: whenDecoded)
    }

    /// The size a picture will decode to, when its header tells it for sure: a JPEG that
    /// asks for no turn. Nil for the others (decoding tells).
    public static func sizeKnownBeforeDecoding(_ data: Data) -> (width: Int, height: Int)? {
        let header = ImageHeader.read(data)
        guard header.format == "jpeg", let width = header.width, let height = header.height, width > 0, height > 0,
              (EmbeddedOrientation.jpeg(data) ?? 1) == 1 else { return nil }
        return (width, height)
    }

    private func decode(_ data: Data, source: String, streaming: (width: Int, height: Int, consumer: RowsConsumer)?,
                        whenDecoded: (ImageInfo) -> Void = { _ in }) throws -> (Raster, ImageInfo, Bool) {
        guard !data.isEmpty else { throw RenderError.empty(source: source) }
        try decoder.checkFileSize(data.count, source: source)
        let header = ImageHeader.read(data)
        try decoder.admit(header, source: source)
        let timeout = TimeInterval(cpuSeconds * 2 + 10)
        let process = HelperProcess(executable: helper, timeout: timeout)
        guard process.isInstalled else {
            throw RenderError.decoderUnavailable(reason: "the decoding helper \(helper) is missing or not executable (reinstall memery, or set MEMERY_HELPER to the memery binary)")
        }
        let budget = memoryBudget(forInput: data.count)
        let request = ImageWorker.Request(maxPixels: decoder.maxPixels, maxFrames: decoder.maxFrames,
                                          maxAnimationPixels: decoder.maxAnimationPixels, alsoAccepted: decoder.alsoAccepted.sorted(), source: source,
                                          memoryBytes: budget, cpuSeconds: cpuSeconds, spendMilliseconds: spendMilliseconds)
        let warm = warm.flatMap { $0.serves(.decoding, by: helper) ? $0 : nil }
        // A warm helper's output is made ready before it is needed, when the size is known.
        let ready = streaming == nil ? header.width.flatMap { width in
            header.height.flatMap { height in warm?.output(bytes: SharedPixels.bytes(width: width, height: height)) }
        } : nil
        let shared = ready ?? SharedPixels()
        let streamed = try streaming.flatMap { streaming in try shared?.preallocate(width: streaming.width, height: streaming.height) }
        let job: any HelperJob
        if let warm, let shared {
            do {
                let picture = try WarmHelpers.memoryFile("memery-picture", holding: data)
                defer { close(picture) }
                job = WarmDecoding(try warm.start(try JSONEncoder().encode(request), descriptors: [picture, shared.descriptor], timeout: timeout))
            } catch let failure as WarmHelpers.Failure {
                throw RenderError.decoderUnavailable(reason: failure.reason)
            }
        } else {
            let argument = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
            job = try process.start(["__image-worker", argument], input: data, output: shared?.fileHandle)
        }
        whenStarted?()
        var consumerFailure: Error?, starts = 0, handedOver = false
        if let streaming, let shared, let streamed {
            (consumerFailure, starts, handedOver) = Self.follow(job, shared, streamed, streaming.consumer)
        }
        switch job.finish() {
        case .timedOut, .cancelled:  // a decode is not cancelled: only its time limit ends it
            throw RenderError.decodeTooSlow(source: source, seconds: cpuSeconds)
        case let .signalled(signal, said):
            if signal == SIGXCPU || signal == SIGKILL { throw RenderError.decodeTooSlow(source: source, seconds: cpuSeconds) }
            if DecoderWords.meansOutOfMemory(said) { throw RenderError.decodeTooHungry(source: source, megabytes: budget >> 20) }
            throw RenderError.decoderCrashed(source: source, signal: signal)
        case .exited(let status, var output, let said):
            if let shared { output = shared.reply() + Data("\n".utf8) }
            if status != 0, DecoderWords.meansOutOfMemory(said) { throw RenderError.decodeTooHungry(source: source, megabytes: budget >> 20) }
            guard status == 0, let end = output.firstIndex(of: UInt8(ascii: "\n")),
                  let reply = try? JSONDecoder().decode(ImageWorker.Reply.self, from: output[output.startIndex..<end]) else {
                throw RenderError.decoderUnavailable(reason: "the decoding helper \(helper) failed (\(said.isEmpty ? "exit \(status)" : said)); reinstall memery, or set MEMERY_HELPER to the memery binary")
            }
            switch reply.error {
            case .none: break
            // A picture that cannot be allocated, or gdk-pixbuf reporting a failed allocation
            // as a broken file: it is the limit speaking.
            case .outOfMemory?: throw RenderError.decodeTooHungry(source: source, megabytes: budget >> 20)
            case let .corrupt(_, _, reason)? where DecoderWords.meansOutOfMemory(reason):
                throw RenderError.decodeTooHungry(source: source, megabytes: budget >> 20)
            case let error?: throw error
            }
            guard let info = reply.info, let stride = reply.stride else {
                throw RenderError.decoderUnavailable(reason: "the decoding helper answered with neither a picture nor a reason")
            }
            if let consumerFailure { throw consumerFailure }
            if let streaming, let shared, starts != 0, handedOver || shared.progress().starts != starts {
                // One decoder gave up and another started again after the consumer had been
                // told of rows: it may have drawn on rows the second decoder was rewriting at
                // that moment, so these pixels cannot be trusted. Rare (a damaged file): decode
                // again, with no one drawing on the rows.
                try streaming.consumer.startOver()
                return try decode(data, source: source, streaming: nil, whenDecoded: whenDecoded)
            }
            whenDecoded(info)
            if let streaming, let shared, let streamed, info.width == streaming.width, info.height == streaming.height {
                try streaming.consumer.rowsReady(streaming.height, of: streamed)
                return (streamed, info, true)
            }
            if let shared {
                guard let raster = try shared.raster(width: info.width, height: info.height, stride: stride) else {
                    throw RenderError.decoderUnavailable(reason: "the decoding helper sent too few pixels for a \(info.width)x\(info.height) picture")
                }
                return (raster, info, false)
            }
            return (try Self.raster(info, stride: stride, pixels: output[(end + 1)...]), info, false)
        }
    }

    /// Tells `consumer` of rows as the helper publishes them, until it ends; returns what the
    /// consumer threw, if it did (it is told no more then), the starts last seen, and whether a
    /// decoder handed over to another while the consumer was being told of rows.
    private static func follow(_ job: any HelperJob, _ shared: SharedPixels, _ raster: Raster,
                               _ consumer: RowsConsumer) -> (Error?, Int, Bool) {
        var seen = (starts: 0, rows: 0)
        var handedOver = false
        while !job.hasEnded {
            var now = shared.progress()
            now.rows = min(now.rows, raster.height)
            do {
                if now.starts != seen.starts {
                    if seen.starts != 0 { handedOver = true }
                    seen = (now.starts, 0)
                }
                if now.rows > seen.rows, !handedOver {  // after a hand-over the rows are decoded again anyway
                    try consumer.rowsReady(now.rows, of: raster)
                    seen.rows = now.rows
                }
            } catch {
                return (error, seen.starts, handedOver)
            }
            usleep(300)
        }
        return (nil, seen.starts, handedOver)
    }

    private static func raster(_ info: ImageInfo, stride: Int, pixels: Data) throws -> Raster {
        let raster = try Raster(width: info.width, height: info.height)
        guard stride >= info.width * 4, pixels.count == stride * info.height else {
            throw RenderError.decoderUnavailable(reason: "the decoding helper sent \(pixels.count) bytes for a \(info.width)x\(info.height) picture")
        }
        pixels.withUnsafeBytes { source in
            raster.withMutablePixels { target, targetStride in
                for row in 0..<info.height {
                    (target + row * targetStride).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * stride,
                                                         count: info.width * 4)
                }
            }
        }
        return raster
    }
}

/// What is done with a picture's rows while the helper is still decoding the rest: each call
/// says how many rows from the top are final.
public protocol RowsConsumer: AnyObject {
    func rowsReady(_ rows: Int, of raster: Raster) throws
    /// Decoding started again (a decoder handed over to another): rows told of before may
    /// change.
    func startOver() throws
}

/// A helper at work on a decode: one started for it (`HelperProcess.Running`) or a warm one
/// (`WarmDecoding`).
protocol HelperJob: AnyObject {
    var hasEnded: Bool { get }
    func finish() -> HelperProcess.Outcome
}

extension HelperProcess.Running: HelperJob {
    var hasEnded: Bool { hasExited }
    func finish() -> HelperProcess.Outcome { wait(cancellation: nil) }
}

/// A warm helper's decode, ending as a helper of its own would: its answer byte standing for
/// the exit status.
final class WarmDecoding: HelperJob {
    private let job: WarmJob

    init(_ job: WarmJob) { self.job = job }

    var hasEnded: Bool { job.hasEnded }

    func finish() -> HelperProcess.Outcome {
        switch job.answer() {
        case .answered(let answer):
            let ending = answer.first.flatMap(ImageWorker.Ending.init) ?? .failed
            job.release(well: ending == .decoded)
            return .exited(status: ending == .failed ? 1 : 0, output: Data(), errors: job.said().trimmingCharacters(in: .whitespacesAndNewlines))
        case .ended(let status):
            let said = job.said().trimmingCharacters(in: .whitespacesAndNewlines)
            let signal = memery_ending_signal(status)
            return signal != 0 ? .signalled(signal, errors: said) : .exited(status: memery_exited_status(status), output: Data(), errors: said)
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        }
    }
}
