import Foundation
import HTTPTypes
import Logging
import MemeryHubProtocol
import NIOCore
import PostgresNIO

/// Pictures by SHA-256: kept once however many users upload them, readable only by a user
/// who uploaded them (and so had the bytes). Asking about a picture one may not read
/// answers as if it were absent, so nobody learns what others keep.
struct Blobs: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// What a user may keep in bytes (`--quota-mb`), pictures and events together.
    var quotaBytes: Int64?
    static let largest = 64 << 20

    /// Stores the bytes under their hash, which must be `hash`, and grants them to the user.
    /// Returns false when this user had uploaded them already (whether anyone else has is
    /// nobody's business).
    func put(_ hash: String, _ bytes: ByteBuffer, by who: SignedIn) async throws -> Bool {
        guard isPictureHash(hash) else { throw HubError.badRequest("\(hash.prefix(80)) is not a SHA-256 in lower-case hex") }
        let data = Data(bytes.readableBytesView)
        guard hex(SHA256Digest.of(data)) == hash else {
            throw HubError.badRequest("the picture's bytes do not match \(hash.prefix(12))…: it changed on the way; upload it again")
        }
        // Only pictures Memery reads are kept, judged by their bytes (not what the sender says).
        guard LibraryRules.sniff(data.prefix(16)) != nil else {
            throw HubError(.unsupportedMediaType, "not-a-picture",
                           "the upload is not a picture in a format Memery takes (PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF): nothing was stored")
        }
        let key = Data(hexBytes(hash))
        let quota = quotaBytes
        return try await client.withTransaction(logger: logger) { connection in
            // Touching an existing row locks it, so an account deletion collecting unused
            // pictures at the same moment cannot delete it under this grant.
            try await connection.query("""
                INSERT INTO blobs (hash, bytes, size) VALUES (\(key), \(data), \(data.count))
                ON CONFLICT (hash) DO UPDATE SET size = blobs.size
                """, logger: logger)
            let granted = try await connection.query("""
                INSERT INTO blob_grants (user_id, hash) VALUES (\(who.user), \(key)) ON CONFLICT DO NOTHING RETURNING user_id
                """, logger: logger).decode(Int64.self).first(where: { _ in true }) != nil
            guard granted else { return false }
            // A picture new to this user counts against their quota (the transaction is
            // undone past it: neither the picture nor the grant stays).
            for try await used in try await connection.query("""
                UPDATE users SET stored_bytes = stored_bytes + \(Int64(data.count)) WHERE id = \(who.user) RETURNING stored_bytes
                """, logger: logger).decode(Int64.self) {
                if let quota, used > quota { throw HubError.overQuota(used: used - Int64(data.count), adding: Int64(data.count), quota: quota) }
            }
            return true
        }
    }

    /// Of `hashes`, those the user has not uploaded.
    func missing(_ hashes: [String], for who: SignedIn) async throws -> [String] {
        let valid = hashes.filter(isPictureHash)
        guard valid.count == hashes.count else { throw HubError.badRequest("every hash is a SHA-256 in lower-case hex") }
        var have = Set<String>()
        for try await hash in try await client.query("""
            SELECT encode(hash, 'hex') FROM blob_grants
            WHERE user_id = \(who.user) AND hash IN (SELECT decode(h, 'hex') FROM unnest(\(valid)::text[]) AS h)
            """, logger: logger).decode(String.self) {
            have.insert(hash)
        }
        return Array(Set(valid).subtracting(have)).sorted()
    }

    func get(_ hash: String, for who: SignedIn) async throws -> Data {
        guard isPictureHash(hash) else { throw HubError.notFound("no picture \(hash.prefix(80))") }
        for try await bytes in try await client.query("""
            SELECT b.bytes FROM blobs b JOIN blob_grants g ON g.hash = b.hash
            WHERE g.user_id = \(who.user) AND b.hash = \(Data(hexBytes(hash)))
            """, logger: logger).decode(Data.self) {
            return bytes
        }
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
