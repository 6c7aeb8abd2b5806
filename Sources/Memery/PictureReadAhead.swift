import Foundation
import MemeryCore
import MemeryRender

/// A picture file read and decoded (in its helper process) on another thread, started before
/// the store is opened. `memery new --image` is one process from start to end: its helper's
/// start (a process of its own) and the store's opening then overlap instead of following
/// each other. It is handed to the edit (`perform(_:on:readingAhead:)`), which takes it for
/// that file only; what it decodes and every error it meets are those of reading the file
/// when the edit asks. It decodes as `Workspace(directory:)` does, with the decoder the
/// environment sets (`ImageDecoder.fromEnvironment`).
public final class PictureReadAhead: @unchecked Sendable {  // `result` is written once, before `done` is signalled
    /// The file it reads, as it was named.
    public let path: String
    private let done = DispatchSemaphore(value: 0)
    /// Signalled once its helper is running, or once the read ended without one.
    private let started = DispatchSemaphore(value: 0)
    private var result: Result<(data: Data, image: BaseImage), any Error>?

    /// Starts reading `path` as the workspace would: the same decoder, from the environment.
    public convenience init(path: String) { self.init(path: path, reader: PictureReader(decoder: .fromEnvironment())) }

    init(path: String, reader: PictureReader) {
        self.path = path
        var told = reader
        told.whenHelperStarted = { [started] in started.signal() }
        let reader = told
        Thread.detachNewThread { [self] in
            result = Result { let read = try reader.readImage(at: path); return (read.data, read.image) }
            done.signal()
            started.signal()  // a picture refused before its helper started, or any error
        }
    }

    /// Returns once the picture's helper is running (or the read has ended without one). Work
    /// the caller does from then on overlaps the decoding; work it did before would have
    /// slowed the reading thread (on two cores the two compete, and the helper starts later).
    /// For one caller only.
    public func waitUntilHelperStarted() {
        started.wait()
    }

    /// The file's bytes and what they are, once read; or the error reading them met.
    func wait() throws -> (data: Data, image: BaseImage) {
        done.wait()
        done.signal()  // for a second asker
        return try result!.get()
    }
}
