import Logging
import Synchronization

/// Log lines kept in memory, metadata flattened to strings, for tests to read.
public final class LogLines: Sendable {
    public init() {}

    public struct Line: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]
    }

    private let kept = Mutex<[Line]>([])
    public var lines: [Line] { kept.withLock { $0 } }

    public var logger: Logger {
        Logger(label: "test") { _ in Handler(lines: self) }
    }

    func keep(_ line: Line) { kept.withLock { $0.append(line) } }

    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
            let merged = self.metadata.merging(metadata ?? [:]) { $1 }
            lines.keep(Line(level: level, message: message.description, metadata: merged.mapValues(\.description)))
        }
    }
}
