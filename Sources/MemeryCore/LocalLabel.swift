import Foundation

/// Layer and filter ids: unique across machines, led by the short label people see and type.
///
/// An id is a label, a dot and 16 random hex digits (`L3.9f1c04e2b7a35d60`): two machines
/// that add a layer to one creation offline never mint the same id, and the label (`L3`),
/// counted along the history's branch, is unique within any state of the creation, so people
/// (and the CLI, and `memery apply`) can name a layer by it. Ids minted before store format 2
/// have no random part: the whole id is the label.
public enum LocalLabel {
    /// The label an id starts with. Bytes decide when the id is ASCII up to the byte after
    /// its first dot (the reason is `is`'s): a label made by walking Characters was a tenth
    /// of drawing a 5,000-edit history (`perf record` of `memery history`).
    public static func of(_ id: String) -> String {
        var id = id
        let ascii: String? = id.withUTF8 { bytes in
            let dot = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
            guard bytes[..<Swift.min(dot + 2, bytes.endIndex)].allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<dot]), as: UTF8.self)
        }
        return ascii ?? String(id.prefix { $0 != "." })
    }

    /// `label == of(id)`, without making the label as a String: a replay asks it for every
    /// edit that names its layer by label, of each layer below that one. Bytes decide when
    /// the label and the id's first bytes, up to the one after its dot, are ASCII: then each
    /// of those bytes is a Character of its own (a Character spans bytes only with something
    /// outside ASCII joined on, or as CR LF), and an ASCII text is canonically equivalent only
    /// to itself. An ASCII label with a dot is no label: `of` stops before any dot that is a
    /// Character of its own. Otherwise Characters decide, as `of` does.
    public static func `is`(_ label: String, labelOf id: String) -> Bool {
        // The views' storage is read in place: `withUTF8` on copies of both made this twice
        // the instructions (callgrind, a replay of edits that name their layer by label).
        let decided: Bool?? = label.utf8.withContiguousStorageIfAvailable { label in
            id.utf8.withContiguousStorageIfAvailable { id in asciiIs(label, labelOf: id) } ?? nil
        }
        return (decided ?? nil) ?? (label == of(id))
    }

    /// `is` decided by bytes, or nil when they are not ASCII where it matters.
    @inline(__always) private static func asciiIs(_ label: UnsafeBufferPointer<UInt8>, labelOf id: UnsafeBufferPointer<UInt8>) -> Bool? {
        let n = label.count
        var dot = false
        for byte in label {
            guard byte < 0x80 else { return nil }
            if byte == UInt8(ascii: ".") { dot = true }
        }
        for i in 0..<min(n + 2, id.count) where id[i] >= 0x80 { return nil }
        guard !dot, id.count >= n else { return false }
        for i in 0..<n where label[i] != id[i] { return false }
        return id.count == n || id[n] == UInt8(ascii: ".")
    }

    /// A new id led by `label`.
    static func mint(_ label: String) -> String {
        label + "." + String(UInt64.random(in: .min ... .max), radix: 16).leftPadded(to: 16)
    }

    /// The number in a label (`L3` gives 3), which the next label counts on from.
    static func number(of id: String) -> Int? {
        Int(of(id).dropFirst())
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
