import Crypto
import Foundation
import Glibc
import MemeryLocks

/// Event ids: new ones, and those of events stored before events had ids (store format 1).
public enum EventIdentity {
    /// A new id: a version-7 UUID (RFC 9562), the time in milliseconds then 74 random bits.
    /// Time-ordered, so the `ids` index grows at its end (an append dirties the last page or
    /// two, where a random id would dirty a random page of a large index every time). Within
    /// one millisecond a process's ids also rise (RFC 9562 6.2, "monotonic random": the
    /// random part of the one before plus a random step), so a batch's ids go in as appends:
    /// 1.4x the events per second of ids random within their millisecond, measured with raw
    /// LMDB in C (scripts/peers/lmdb_appends.c, three keys an event).
    public static func newID(now: Date = Date()) -> UUID {
        let millis = UInt64(exactly: max(0, (now.timeIntervalSince1970 * 1000).rounded(.down))) ?? UInt64(Int64.max)
        let random = idBits.withLock { $0.randomPart(inMillisecond: millis) }
        var uuid = EventRecord.noParent.uuid
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - index))) }
            bytes[6] = 0x70 | UInt8(random.high >> 8)  // version 7, then 12 random bits
            bytes[7] = UInt8(truncatingIfNeeded: random.high)
            for index in 0..<8 { bytes[8 + index] = UInt8(truncatingIfNeeded: random.low >> (8 * (7 - index))) }
            bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC variant, then 62 random bits
        }
        return UUID(uuid: uuid)
    }

    /// The random bits of new ids, and the last id's random part with its millisecond.
    /// Memery starts other processes only by spawning (exec): a fork that went on running
    /// this code would have to empty the buffer, or both processes would hand out its bits.
    private static let idBits = Locked(RandomWords())

    /// The random bits are the kernel's own, read ahead 4 KiB at a time: two getrandom calls
    /// for each id (64 bits each) were a third of what a batched append cost. Ids need to be
    /// unlikely to meet, not secret.
    struct RandomWords {
        private var words = [UInt64](repeating: 0, count: 512)
        private var used = 512
        /// The random part handed out last, with its millisecond (settable for tests).
        var last: (millis: UInt64, high: UInt16, low: UInt64)?

        static let lowBits: UInt64 = 1 << 62 - 1

        /// The 74 random bits of an id in `millis` (12 high, 62 low). In the millisecond of the
        /// id before: that id's bits plus a random step of 1 to 2^32, so rising. Two processes'
        /// ids of one millisecond can meet only where their runs overlap: each starts at fresh
        /// random bits, and a run of a thousand ids spans under 2^42 of the 2^74 values. A new
        /// millisecond, a clock that went back, or a step past the last value take fresh bits.
        mutating func randomPart(inMillisecond millis: UInt64) -> (high: UInt16, low: UInt64) {
            let fresh = next()
            var part = (high: UInt16(truncatingIfNeeded: fresh.0) & 0x0fff, low: fresh.1 & Self.lowBits)
            if let last, last.millis == millis {
                let low = last.low + (fresh.1 & 0xffff_ffff) + 1  // cannot overflow 64 bits
                if low <= Self.lowBits {
                    part = (last.high, low)
                } else if last.high < 0x0fff {
                    part = (last.high + 1, low & Self.lowBits)
                }
            }
            last = (millis, part.high, part.low)
            return part
        }

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
