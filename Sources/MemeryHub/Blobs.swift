import Foundation
import HTTPTypes
import MemeryHubProtocol
import NIOCore

/// Pictures by SHA-256: kept once however many users upload them, readable only by a user
/// who uploaded them (and so had the bytes). Asking about a picture one may not read
/// answers as if it were absent, so nobody learns what others keep.
struct Blobs: Sendable {
    let records: any PictureRecords
    /// What a user may keep in bytes (`--quota-mb`), pictures and events together.
    var quotaBytes: Int64?
    static let largest = 64 << 20
    /// The most hashes one question about missing pictures may name.
    static let mostAskedAbout = 10_000

    /// Stores the bytes under their hash, which must be `hash`, and grants them to the user.
    /// Returns false when this user had uploaded them already (whether anyone else has is
    /// nobody's business).
    func put(_ hash: String, _ bytes: ByteBuffer, by who: SignedIn) async throws -> Bool {
        try await put(hash, Data(bytes.readableBytesView), by: who)
    }

    func put(_ hash: String, _ data: Data, by who: SignedIn) async throws -> Bool {
        guard data.count <= Self.largest else {
            throw HubError(.contentTooLarge, "too-large", "a picture is at most \(Self.largest >> 20) MB on this hub: nothing was stored")
        }
        guard isPictureHash(hash) else { throw HubError.badRequest("\(hash.prefix(80)) is not a SHA-256 in lower-case hex") }
        guard hex(SHA256Digest.of(data)) == hash else {
            throw HubError.badRequest("the picture's bytes do not match \(hash.prefix(12))…: it changed on the way; upload it again")
        }
        // Only pictures Memery reads are kept, judged by their bytes (not what the sender says).
        guard LibraryRules.sniff(data.prefix(16)) != nil else {
            throw HubError(.unsupportedMediaType, "not-a-picture",
                           "the upload is not a picture in a format Memery takes (PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF): nothing was stored")
        }
        return try await records.keep(Data(hexBytes(hash)), data, for: who.user, quota: quotaBytes)
    }

    /// Of `hashes`, those the user has not uploaded.
    func missing(_ hashes: [String], for who: SignedIn) async throws -> [String] {
        guard hashes.count <= Self.mostAskedAbout else { throw HubError.badRequest("ask about at most \(Self.mostAskedAbout) pictures at once") }
        let valid = hashes.filter(isPictureHash)
        guard valid.count == hashes.count else { throw HubError.badRequest("every hash is a SHA-256 in lower-case hex") }
        let have = try await records.granted(valid, to: who.user)
        return Array(Set(valid).subtracting(have)).sorted()
    }

    func get(_ hash: String, for who: SignedIn) async throws -> Data {
        guard isPictureHash(hash) else { throw HubError.notFound("no picture \(hash.prefix(80))") }
        if let bytes = try await records.bytes(Data(hexBytes(hash)), for: who.user) { return bytes }
        throw HubError.notFound("no picture \(hash.prefix(12))… of yours on this hub")
    }
}

/// The bytes of a hex string known to be valid.
func hexBytes(_ text: String) -> [UInt8] {
    var bytes = [UInt8]()
    var iterator = text.utf8.makeIterator()
    func nibble(_ c: UInt8) -> UInt8 { c >= 97 ? c - 87 : c - 48 }
    while let high = iterator.next(), let low = iterator.next() { bytes.append(nibble(high) << 4 | nibble(low)) }
    return bytes
}
