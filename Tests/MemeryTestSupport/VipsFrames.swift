import Foundation
import MemeryRender

/// An animation's frames as libvips decodes them (its GIF loader is NetSurf's libnsgif, a
/// browser's; WebP goes through libwebp), to check Memery's animations against a decoder of
/// its own: `vips copy FILE[n=-1]` stacks the frames into one tall picture.
public func vipsFrames(of data: Data, ext: String) throws -> (frames: [Raster], delays: [Int], loop: Int) {
    let scratch = try TemporaryDirectory()
    defer { scratch.cleanup() }
    let input = scratch.url.appendingPathComponent("in.\(ext)").path, strip = scratch.url.appendingPathComponent("strip.png").path
    try data.write(to: URL(fileURLWithPath: input))
    let pages = Int(try run(["vipsheader", "-f", "n-pages", input])) ?? 0
    let delays = try run(["vipsheader", "-f", "delay", input]).split(separator: " ").compactMap { Int($0) }
    let loop = Int(try run(["vipsheader", "-f", "loop", input])) ?? -1
    _ = try run(["vips", "copy", "\(input)[n=-1]", strip])
    let tall = try ImageDecoder(maxPixels: 500_000_000).decode(try Data(contentsOf: URL(fileURLWithPath: strip)), source: "strip").0
    let height = tall.height / max(pages, 1)
    return (try (0..<pages).map { try band(of: tall, from: $0 * height, height: height) }, delays, loop)
}

/// Rows `top..<top + height` of `raster`.
public func band(of raster: Raster, from top: Int, height: Int) throws -> Raster {
    let band = try Raster(width: raster.width, height: height)
    raster.withMutablePixels { source, sourceStride in
        band.withMutablePixels { target, stride in
            for y in 0..<height { (target + y * stride).update(from: source + (top + y) * sourceStride, count: raster.width * 4) }
        }
    }
    return band
}

/// What a command printed, trimmed (it is found on PATH).
func run(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
