import Foundation
import MemeryCore
import MemeryRender

/// A picture file read and decoded (in its helper process) on another thread, started before
/// the store is opened. `memery new --image` is one process from start to end: its helper's
/// start (a process of its own, about 12 ms) and the store's opening then overlap instead of
/// following each other. It is handed to the edit (`perform(_:on:readingAhead:)`), which takes
/// it for that file only; what it decodes and every error it meets are those of reading the
/// file when the edit asks. It decodes as `Workspace(directory:)` does, with the decoder the
/// environment sets (`ImageDecoder.fromEnvironment`).
public final class PictureReadAhead: @unchecked Sendable {  // `result` is written once, before `done` is signalled
    let path: String
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<(data: Data, image: BaseImage), any Error>?

    /// Starts reading `path` as the workspace would: the same decoder, from the environment.
    public convenience init(path: String) { self.init(path: path, reader: PictureReader(decoder: .fromEnvironment())) }

    init(path: String, reader: PictureReader) {
        self.path = path
        Thread.detachNewThread { [self] in
            result = Result { let read = try reader.readImage(at: path); return (read.data, read.image) }
            done.signal()
        }
    }

    /// The file's bytes and what they are, once read; or the error reading them met.
    func wait() throws -> (data: Data, image: BaseImage) {
        done.wait()
        done.signal()  // for a second asker
        return try result!.get()
    }
}
