import Foundation

/// A TCP connection to 127.0.0.1 that sends exactly the bytes a test writes, as a hostile
/// client would: headers alone, a trickle, a body the headers lie about.
final class RawHTTP {
    let socket: Int32

    init(port: Int) throws {
        socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw ClusterError("could not connect to 127.0.0.1:\(port)") }
    }

    deinit { close(socket) }

    /// Writes the bytes; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// A response's head (its status line and headers) as soon as it is all in, or what
    /// arrived before the server closed or went quiet for `seconds`: a limit generous for a
    /// busy machine costs nothing when the answer comes at once.
    func receiveHead(within seconds: Double) -> String {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
            if received.count > 1 << 20 || received.range(of: Data("\r\n\r\n".utf8)) != nil { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// True when the server has closed the connection (a read gives end-of-file, or the
    /// connection was reset) within `seconds`.
    func isClosed(within seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }
}

/// A process's resident memory in MB (VmRSS).
func residentMegabytes(of pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return -1 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}
