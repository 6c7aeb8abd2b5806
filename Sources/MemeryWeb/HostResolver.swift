import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns a host name into the addresses a download may connect to. A protocol so that tests
/// can say what a name resolves to (a metadata address, a private range) without any DNS and
/// without connecting there.
public protocol HostResolving: Sendable {
    /// Textual IPv4 or IPv6 addresses ("93.184.216.34", "2606:2800::1"); empty when none.
    func addresses(of host: String) async throws -> [String]
}

/// The system's resolver (getaddrinfo, so /etc/hosts and nsswitch count), run off the caller's thread.
public struct SystemHostResolver: HostResolving {
    public init() {}

    public func addresses(of host: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try Self.resolve(host) }) }
        }
    }

    static func resolve(_ host: String) throws -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let list else {
            throw DownloadError.cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var found = [String]()
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry?.pointee {
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if current.ai_family == AF_INET, let address = current.ai_addr {
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { var a = $0.pointee.sin_addr; _ = inet_ntop(AF_INET, &a, &text, socklen_t(text.count)) }
            } else if current.ai_family == AF_INET6, let address = current.ai_addr {
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { var a = $0.pointee.sin6_addr; _ = inet_ntop(AF_INET6, &a, &text, socklen_t(text.count)) }
            }
            let address = String(cString: text)
            if !address.isEmpty, !found.contains(address) { found.append(address) }
            entry = current.ai_next
        }
        return found
    }
}
