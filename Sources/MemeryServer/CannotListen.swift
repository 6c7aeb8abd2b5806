import Foundation

/// The server cannot listen where it was asked: said as what to do, by the system's error
/// number (the CLI once read it out of NIO's words).
public struct CannotListen: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let errno: Int32

    /// The errors of `bind` a person can act on; others are not this type's.
    static let understood: Set<Int32> = [EADDRINUSE, EACCES, EADDRNOTAVAIL]

    public var description: String {
        switch errno {
        case EADDRINUSE: "port \(port) on \(host) is taken by another program: choose another with --port, or --port 0 for a free one"
        case EACCES: "port \(port) needs more privileges than this user has (ports below 1024 are the system's): choose one above 1023 with --port"
        default: "this machine has no address \(host) to listen on: give one of its own with --host (127.0.0.1 for this machine alone)"
        }
    }
}
