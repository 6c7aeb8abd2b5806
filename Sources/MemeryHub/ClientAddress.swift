import Foundation
import HTTPTypes
import MemeryHTTP

/// A range of IP addresses, as `--trusted-proxy` names one: `10.0.0.0/8`, `::1/128`, or a
/// single address.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    let network: [UInt8]
    let prefix: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let bytes = Self.bytes(parts.first ?? "") else { return nil }
        let bits = bytes.count * 8
        guard let prefix = parts.count == 2 ? Int(parts[1]) : bits, (0...bits).contains(prefix) else { return nil }
        self.network = bytes
        self.prefix = prefix
    }

    public var description: String { "\(Self.text(network))/\(prefix)" }

    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        var left = prefix
        for (a, n) in zip(address, network) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xff : ~(0xff >> UInt8(left))
            if a & mask != n & mask { return false }
            left -= 8
        }
        return true
    }

    /// An address's bytes (4 or 16); an IPv4 address mapped into IPv6 as its 4.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return Array(bytes[12...]) }
        return bytes
    }

    static func text(_ bytes: [UInt8]) -> String {
        bytes.count == 4 ? bytes.map(String.init).joined(separator: ".")
            : stride(from: 0, to: bytes.count, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}

/// Who sent a request, as the login limits count addresses: the peer, unless the peer is a
/// proxy the hub was told to trust, and then the last address in `X-Forwarded-For` that is
/// not one of those proxies (the ones before it are whatever the client claimed).
struct ClientAddress: Sendable {
    var trusted: [AddressRange] = []

    /// The client's address as the limits count it: an IPv6 address by its /64, which is
    /// what one home or one server is given (counting single addresses, one client would
    /// be 2^64 of them).
    func of(peer: String, headers: HTTPFields) -> String {
        Self.counted(forwarded(peer: peer, headers: headers))
    }

    static func counted(_ address: String) -> String {
        guard let bytes = AddressRange.bytes(address), bytes.count == 16 else { return address }
        return AddressRange.text(Array(bytes[0..<8]) + [UInt8](repeating: 0, count: 8)) + "/64"
    }

    private func forwarded(peer: String, headers: HTTPFields) -> String {
        guard !trusted.isEmpty, isTrusted(peer) else { return peer }
        let forwarded = headers[values: .init("X-Forwarded-For")!].flatMap { $0.split(separator: ",") }
            .map { String($0.trimmingOptionalWhitespace) }
        for hop in forwarded.reversed() {
            guard AddressRange.bytes(hop) != nil else { return peer }  // garbage: nothing before it can be believed
            if !isTrusted(hop) { return hop }
        }
        return peer
    }

    private func isTrusted(_ address: String) -> Bool {
        guard let bytes = AddressRange.bytes(address) else { return false }
        return trusted.contains { $0.contains(bytes) }
    }
}
