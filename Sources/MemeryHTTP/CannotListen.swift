import Foundation

/// A server (the editor's, or the hub) could not listen where it was asked to: said as what to
/// do, naming the option that changes it, where NIO's words name a system call.
public struct CannotListen: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let errno: Int32
    /// The option that names the address (`--host`, `--listen`).
    public var hostOption = "--host"
    /// True when the words point to `--port 0` for a free port, and to 127.0.0.1 for an
    /// address (the editor's server, which one person runs for themselves).
    public var suggestsLocal = true

    public init(host: String, port: Int, errno: Int32, hostOption: String = "--host", suggestsLocal: Bool = true) {
        self.host = host; self.port = port; self.errno = errno
        self.hostOption = hostOption; self.suggestsLocal = suggestsLocal
    }

    /// The errors of `bind` a person can act on; others are not this type's.
    public static let understood: Set<Int32> = [EADDRINUSE, EACCES, EADDRNOTAVAIL]

    public var description: String {
        switch errno {
        case EADDRINUSE: "port \(port) on \(host) is taken by another program: choose another with --port\(suggestsLocal ? ", or --port 0 for a free one" : "")"
        case EACCES: "port \(port) needs more privileges than this user has (ports below 1024 are the system's): choose one above 1023 with --port"
        default: "this machine has no address \(host) to listen on: give one of its own with \(hostOption)\(suggestsLocal ? " (127.0.0.1 for this machine alone)" : "")"
        }
    }
}
