import Foundation
import MemeryGuardPages

/// A picture's rows as a third-party filter receives them in the helper process and in
/// `plugin check`: `padding` bytes after each row that belong to the host (filled with a
/// canary and checked afterwards), the whole ending flush against a page the filter may not
/// touch and starting after another, so that running past either end faults on every size.
/// The fault handler (`watch`) says which buffer was overrun and by how much.
final class GuardedPixels {
    /// Its own allocation: the fault handler keeps its address, which a stored property's
    /// `&` does not promise past the call.
    private let guarded: UnsafeMutablePointer<memery_guarded> = {
        let pointer = UnsafeMutablePointer<memery_guarded>.allocate(capacity: 1)
        pointer.initialize(to: memery_guarded())
        return pointer
    }()
    let width: Int, height: Int, stride: Int
    /// What fills the padding: an input's differs from an output's, so that a filter copying
    /// whole strides from one to the other is still caught.
    let canary: UInt8
    /// What the fault handler calls this buffer; kept alive as long as the buffer.
    private let label: UnsafeMutablePointer<CChar>

    init(width: Int, height: Int, padding: Int, label: String, filter: String, canary: UInt8 = 0xA5) throws {
        self.canary = canary
        self.width = width
        self.height = height
        stride = width * 4 + padding
        self.label = strdup(label)
        guard memery_guarded_alloc(guarded, stride * height) == 0 else {
            free(self.label)
            guarded.deallocate()
            throw FilterError.isolationFailed(filter: filter, reason: "no memory for \(stride * height) bytes of pixels")
        }
        if padding > 0 {
            for y in 0..<height { (pixels + y * stride + width * 4).initialize(repeating: canary, count: padding) }
        }
    }

    deinit {
        memery_guard_unwatch(guarded)
        memery_guarded_free(guarded)
        guarded.deallocate()
        free(label)
    }

    var pixels: UnsafeMutablePointer<UInt8> { guarded.pointee.pixels }

    /// Copies tightly packed rows in.
    func fill(from tight: UnsafeRawPointer) {
        for y in 0..<height { (pixels + y * stride).update(from: (tight + y * width * 4).assumingMemoryBound(to: UInt8.self), count: width * 4) }
    }

    /// Copies the rows out, tightly packed.
    func copy(to tight: UnsafeMutableRawPointer) {
        for y in 0..<height { (tight + y * width * 4).copyMemory(from: pixels + y * stride, byteCount: width * 4) }
    }

    /// Makes the pixels read-only: an input a filter writes into faults.
    func seal() { _ = memery_guarded_seal(guarded) }

    /// Lets the fault handler name this buffer (slot 0 to 3).
    func watch(slot: Int32) {
        memery_guard_watch(slot, guarded, label, stride, height)
    }

    /// Where the filter wrote outside its pixels without faulting: a row's padding, or the
    /// bytes just before the first row. Nil when it did not.
    func strayWrite() -> String? {
        let padding = stride - width * 4
        for y in 0..<height where padding > 0 {
            let start = pixels + y * stride + width * 4
            if UnsafeBufferPointer(start: start, count: padding).contains(where: { $0 != canary }) {
                return "wrote past the end of row \(y) of \(String(cString: label)), into the stride padding"
            }
        }
        if memery_guarded_slack_intact(guarded) == 0 { return "wrote before the start of \(String(cString: label))" }
        return nil
    }

    /// The fault handler, for a process about to run a third-party filter.
    static func installFaultHandler() { memery_guard_install() }

    /// The handler's line in a dead helper's standard error, if it wrote one.
    static func overrun(in errors: String) -> String? {
        let marker = "\u{1}memery-guard\u{1}"
        return errors.split(separator: "\n").first { $0.hasPrefix(marker) }.map { String($0.dropFirst(marker.count)) }
    }
}
