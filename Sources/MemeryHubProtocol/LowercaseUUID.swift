import Foundation

/// A UUID as the hub's checksums spell it (`8-4-4-4-12` lower-case hex), written into a
/// buffer on the stack. `uuidString.lowercased()` makes two strings through Foundation and
/// cost about 7,000 instructions on Linux; every event's checksum spells four (callgrind,
/// 2026-12-03), on the machine that sends it and on the hub that takes it.
enum LowercaseUUID {
    static func withASCII<Result>(_ id: UUID, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let digits: StaticString = "0123456789abcdef"
        return try withUnsafeBytes(of: id.uuid) { bytes in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { text in
                digits.withUTF8Buffer { digits in
                    var at = 0
                    for (index, byte) in bytes.enumerated() {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            text[at] = UInt8(ascii: "-")
                            at += 1
                        }
                        text[at] = digits[Int(byte >> 4)]
                        text[at + 1] = digits[Int(byte & 0x0f)]
                        at += 2
                    }
                }
                return try body(UnsafeRawBufferPointer(text))
            }
        }
    }
}
