public import Foundation

/// A creation's picture, encoded, and how much of its animation it holds.
public struct Picture: Sendable {
    public var data: Data
    public var format: ExportFormat
    /// Frames written: 1 in PNG and JPEG, and for a still creation.
    public var frames: Int
    /// Frames the creation's base image holds: 1 for a still picture.
    public var framesInCreation: Int

    /// What to tell the person when an animation was written as its first frame alone.
    public var note: String? {
        guard frames == 1, framesInCreation > 1 else { return nil }
        return "the creation is animated (\(framesInCreation) frames) and \(format.displayName) holds one picture, so its first frame was written; export to .gif or .webp to keep the animation"
    }
}
