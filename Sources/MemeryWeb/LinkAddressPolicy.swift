import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which addresses a picture link may lead to. On a machine serving other people (the hub
/// serving the editor) a link must not become a way into that machine's own network: loopback,
/// private, link-local (169.254.169.254, the cloud metadata address, among them), shared
/// carrier-grade NAT, unique-local, multicast and reserved ranges are refused, including IPv4
/// written inside IPv6. Checked on the resolved addresses, for the first request and for
/// every redirect, and the connection goes to the address checked (no second lookup).
public struct LinkAddressPolicy: Sendable {
    /// Whether private addresses are allowed: a person's own `memery` on their own machine
    /// may fetch from their own network; a server for others may not, unless its operator says so.
    public var allowsPrivateAddresses: Bool
    /// Addresses allowed although not public (an operator's own picture server, a test's).
    public var exceptions: Set<String>

    public init(allowsPrivateAddresses: Bool, exceptions: Set<String> = []) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.exceptions = exceptions
    }

    public func allows(_ address: String) -> Bool { allowsPrivateAddresses || exceptions.contains(address) || Self.isPublic(address) }

    /// True for an address on the public internet; false for anything local, private,
    /// reserved, or not an address at all.
    public static func isPublic(_ address: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return isPublicV4(UInt32(bigEndian: v4.s_addr))
        }
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
        let embedded = UInt32(bytes[12]) << 24 | UInt32(bytes[13]) << 16 | UInt32(bytes[14]) << 8 | UInt32(bytes[15])
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return isPublicV4(embedded) }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::, ::1, and the deprecated compatible form
        if bytes[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return isPublicV4(embedded) }
        // Global unicast is 2000::/3; within it, documentation (2001:db8::/32), Teredo and
        // ORCHID-style 2001::/23 special ranges, and 6to4 (2002::/16, which embeds IPv4) are not followed.
        guard bytes[0] & 0xe0 == 0x20 else { return false }  // fc00::/7, fe80::/10, ff00::/8, … all fall here
        if bytes[0] == 0x20 && bytes[1] == 0x01 && (bytes[2] == 0x0d && bytes[3] == 0xb8 || bytes[2] & 0xfe == 0x00) { return false }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return false }
        return true
    }

    static func isPublicV4(_ a: UInt32) -> Bool {
        func within(_ network: UInt32, _ bits: UInt32) -> Bool { a >> (32 - bits) == network >> (32 - bits) }
        let refused: [(UInt32, UInt32)] = [
            (0x0000_0000, 8),   // 0.0.0.0/8 "this network"
            (0x0a00_0000, 8),   // 10/8 private
            (0x6440_0000, 10),  // 100.64/10 shared (carrier-grade NAT)
            (0x7f00_0000, 8),   // 127/8 loopback
            (0xa9fe_0000, 16),  // 169.254/16 link-local, the cloud metadata address
            (0xac10_0000, 12),  // 172.16/12 private
            (0xc000_0000, 24),  // 192.0.0/24 protocol assignments
            (0xc000_0200, 24),  // 192.0.2/24 documentation
            (0xc058_6300, 24),  // 192.88.99/24 6to4 relay
            (0xc0a8_0000, 16),  // 192.168/16 private
            (0xc612_0000, 15),  // 198.18/15 benchmarking
            (0xc633_6400, 24),  // 198.51.100/24 documentation
            (0xcb00_7100, 24),  // 203.0.113/24 documentation
            (0xe000_0000, 4),   // 224/4 multicast
            (0xf000_0000, 4),   // 240/4 reserved, and the broadcast address
        ]
        return !refused.contains { within($0.0, $0.1) }
    }
}

extension LinkAddressPolicy {
    /// Whether `text` is an IPv4 or IPv6 address rather than a name.
    public static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
