import Crypto
import Foundation
import Glibc
import MemeryLocks

/// Event ids: new ones, and those of events stored before events had ids (store format 1).
public enum EventIdentity {
    /// A new id: a version-7 UUID (RFC 9562), the time in milliseconds then 74 random bits.
    /// Time-ordered, so the `ids` index grows at its end (an append dirties the last page or
    /// two, where a random id would dirty a random page of a large index every time).
    public static func newID(now: Date = Date()) -> UUID {
        let random = idBits.withLock { $0.next() }
        let millis = UInt64(exactly: max(0, (now.timeIntervalSince1970 * 1000).rounded(.down))) ?? UInt64(Int64.max)
        var uuid = EventRecord.noParent.uuid
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: random.0, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: random.1, toByteOffset: 8, as: UInt64.self)
            for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - index))) }
            bytes[6] = (bytes[6] & 0x0f) | 0x70  // version 7
            bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC variant
        }
        return UUID(uuid: uuid)
    }

    /// The random part of new ids, read from the kernel 4 KiB at a time: two getrandom calls
    /// for each id (64 bits each) were a third of what a batched append cost. The bits are
    /// the kernel's own, only read ahead; ids need to be unlikely to meet, not secret.
    /// Memery starts other processes only by spawning (exec): a fork that went on running
    /// this code would have to empty the buffer, or both processes would hand out its bits.
    private static let idBits = Locked(RandomWords())

    struct RandomWords {
        private var words = [UInt64](repeating: 0, count: 512)
        private var used = 512

        mutating func next() -> (UInt64, UInt64) {
            if used + 2 > words.count { refill() }
            defer { used += 2 }
            return (words[used], words[used + 1])
        }

        private mutating func refill() {
            // /dev/urandom is the kernel's getrandom source; Swift cannot call getrandom(2)
            // itself, and the standard library's generator makes one call per 64 bits.
            let filled = words.withUnsafeMutableBytes { buffer -> Bool in
                let file = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
                guard file >= 0 else { return false }
                defer { close(file) }
                var offset = 0
                while offset < buffer.count {
                    let count = read(file, buffer.baseAddress! + offset, buffer.count - offset)
                    if count > 0 { offset += count } else if count < 0, errno == EINTR { continue } else { return false }
                }
                return true
            }
            if !filled {
                // No /dev/urandom (a bare chroot): the standard library's own source.
                var generator = SystemRandomNumberGenerator()
                for index in words.indices { words[index] = generator.next() }
            }
            used = 0
        }
    }

    /// The id a format-1 event is given when its store is migrated: derived from its stream
    /// and version, so that migrating two copies of one store gives the same ids (and a sync
    /// of both stores nothing twice). A version-8 UUID (RFC 9562: name-based, custom hash).
    public static func formatOneID(stream: UUID, version: UInt64) -> UUID {
        var input = Array("memery format-1 event".utf8)
        withUnsafeBytes(of: stream.uuid) { input += $0 }
        withUnsafeBytes(of: version.bigEndian) { input += $0 }
        return nameBased(input)
    }

    /// A stream's id made from another's and a purpose (a creation's membership stream from
    /// the creation's id): the same on every machine, so two stores that made the same
    /// stream independently name it alike.
    public static func derived(from stream: UUID, purpose: String) -> UUID {
        var input = Array("memery derived stream \(purpose)".utf8)
        withUnsafeBytes(of: stream.uuid) { input += $0 }
        return nameBased(input)
    }

    /// A version-8 UUID (RFC 9562: name-based, custom hash) from SHA-256 of `input`.
    private static func nameBased(_ input: [UInt8]) -> UUID {
        var bytes = Array(SHA256.hash(data: input).prefix(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC variant
        return KeyEncoding.uuid(bytes)!
    }
}
