import Foundation

/// Writes a file so that it is either the old one or the whole new one, never half of it:
/// the bytes go to a temporary file beside it, are synced, then renamed over it.
public enum AtomicFile {
    /// Temporary files of earlier writes to `url` whose process died before renaming them.
    static func removeLeftovers(of url: URL) {
        let prefix = ".\(url.lastPathComponent)."
        let directory = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let pid = name.dropFirst(prefix.count).dropLast(4)
            // kill(pid, 0) fails with ESRCH when no such process is alive.
            if let pid = Int32(pid), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                unlink(directory.appendingPathComponent(name).path)
            }
        }
    }

    public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        removeLeftovers(of: url)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw RenderError.writeFailed(path: url.path, reason: String(cString: strerror(errno))) }
        var failure: String?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno)); return
                }
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw RenderError.writeFailed(path: url.path, reason: failure)
        }
    }
}
