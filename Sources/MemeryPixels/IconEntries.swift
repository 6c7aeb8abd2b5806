import Foundation

/// An ICO or CUR file holds several pictures of one icon (16x16 to 256x256); gdk-pixbuf's
/// loader takes one that is not the largest. A favicon used as a sticker wants the largest:
/// its entry is chosen here from the directory and handed over alone, a PNG entry as the PNG
/// it is, a bitmap one as an icon of one entry.
enum IconEntries {
    struct Entry: Equatable {
        var width: Int, height: Int, bitCount: Int
        var offset: Int, size: Int
    }

    /// The directory's entries whose data lies inside the file.
    static func entries(_ data: Data) -> [Entry] {
        data.withUnsafeBytes { bytes in
            guard bytes.count >= 6, le16(bytes, 0) == 0, [1, 2].contains(le16(bytes, 2)) else { return [] }
            let count = min(Int(le16(bytes, 4)), 256)
            var found = [Entry]()
            for index in 0..<count {
                let at = 6 + index * 16
                guard at + 16 <= bytes.count else { break }
                let offset = Int(le32(bytes, at + 12)), size = Int(le32(bytes, at + 8))
                guard size > 0, offset >= 6 + count * 16, offset <= bytes.count, size <= bytes.count - offset else { continue }
                // 0 means 256 in the directory's one-byte sizes.
                found.append(Entry(width: bytes[at] == 0 ? 256 : Int(bytes[at]), height: bytes[at + 1] == 0 ? 256 : Int(bytes[at + 1]),
                                   bitCount: Int(le16(bytes, at + 6)), offset: offset, size: size))
            }
            return found
        }
    }

    /// The largest picture (then the deepest colours) as a file of its own: PNG bytes, or an
    /// icon of that one entry. Nil when the directory names none.
    static func largest(_ data: Data) -> Data? {
        guard let best = entries(data).max(by: { ($0.width * $0.height, $0.bitCount) < ($1.width * $1.height, $1.bitCount) }) else {
            return nil
        }
        let start = data.startIndex + best.offset
        let picture = data[start..<(start + best.size)]
        if picture.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return Data(picture) }
        // The file's own header (reserved, ICO or CUR), one entry, then its bitmap.
        return Data(data[data.startIndex..<(data.startIndex + 4)]) + Data([1, 0]) + directoryEntry(best) + picture
    }

    /// `entry`'s 16 directory bytes, pointing at the data right after a one-entry directory.
    private static func directoryEntry(_ entry: Entry) -> Data {
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes[0] = entry.width >= 256 ? 0 : UInt8(entry.width)
        bytes[1] = entry.height >= 256 ? 0 : UInt8(entry.height)
        bytes[4] = 1
        bytes[6] = UInt8(entry.bitCount & 0xFF); bytes[7] = UInt8(entry.bitCount >> 8 & 0xFF)
        for (index, value) in [(8, entry.size), (12, 22)] {
            for byte in 0..<4 { bytes[index + byte] = UInt8(value >> (8 * byte) & 0xFF) }
        }
        return Data(bytes)
    }
}
