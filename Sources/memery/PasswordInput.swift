import Foundation

/// A password from the terminal (not echoed) or, for scripts, the first line of standard input.
enum PasswordInput {
    static func read(prompt: String, fromStandardInput: Bool) throws -> String {
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw InputError("--password-stdin: standard input held no password (give it as the first line)")
            }
            return line
        }
        let terminal = open("/dev/tty", O_RDWR)
        guard terminal >= 0 else { throw InputError("no terminal to ask for the password on: give it with --password-stdin") }
        defer { close(terminal) }
        _ = prompt.withCString { Foundation.write(terminal, $0, strlen($0)) }
        var saved = termios()
        tcgetattr(terminal, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(terminal, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(terminal, TCSAFLUSH, &saved)
            _ = Foundation.write(terminal, "\n", 1)
        }
        var bytes = [UInt8]()
        var byte: UInt8 = 0
        while Foundation.read(terminal, &byte, 1) == 1, byte != 10, byte != 13 { bytes.append(byte) }
        let password = String(decoding: bytes, as: UTF8.self)
        guard !password.isEmpty else { throw InputError("no password given") }
        return password
    }
}
