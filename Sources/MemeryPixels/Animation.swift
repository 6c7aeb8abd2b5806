import Foundation

/// One frame of an animation as it is shown: the whole canvas, and how long it stays.
public struct AnimationFrame {
    public var raster: Raster
    /// Milliseconds, as the file gives them (GIF counts hundredths of a second).
    public var delay: Int
}

/// How often an animation plays, in GIF's terms: nil plays it once (a GIF without a loop
/// extension), 0 forever, n plays it n more times. WebP counts plays: 1 once, 0 forever.
public typealias AnimationLoops = Int?

/// Reads an animation frame by frame, each composed over what the last one left, so one
/// canvas is held at a time however many frames there are.
package protocol FrameSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var frameCount: Int { get }
    var loops: AnimationLoops { get }
    /// The next frame, or nil after the last.
    func next() throws -> AnimationFrame?
    /// Decodes the next frame without handing it over (checking a file): false after the last.
    func skip() throws -> Bool
}

package enum Animations {
    /// The formats whose files may hold more than one frame.
    package static let formats: Set<String> = ["gif", "webp"]

    /// Whether the header says the file holds an animation Memery plays.
    package static func isAnimated(_ header: ImageHeader) -> Bool {
        header.frames > 1 && header.format.map(formats.contains) == true
    }

    /// A reader for an animated GIF or WebP; `source` names the file in errors.
    package static func open(_ data: Data, format: String, source: String) throws -> FrameSource {
        switch format {
        case "gif": return try GIFFrames(data, source: source)
        case "webp": return try WebPFrames(data, source: source)
        default: throw RenderError.corrupt(source: source, format: format, reason: "it is not an animation format")
        }
    }
}
