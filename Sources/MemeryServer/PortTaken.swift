import Foundation

/// The port asked for is another program's: said as what to do, by type (the CLI once read
/// it out of NIO's words).
public struct PortTaken: Error, CustomStringConvertible {
    public let host: String
    public let port: Int

    public var description: String {
        "port \(port) on \(host) is taken by another program: choose another with --port, or --port 0 for a free one"
    }
}
