import Foundation
import Synchronization
import MemeryPluginABI

/// What plugins write through `host->log`: warnings and errors on standard error, each line
/// named by the filter (or plugin) that wrote it; every level with MEMERY_PLUGIN_LOG=debug
/// (or info, warning, error, off). A plugin running in the helper process writes its lines
/// there marked for relay, and the host prints them when the helper ends, whatever the
/// outcome (a line written just before a crash is the one an author needs most).
public enum PluginLog {
    /// The least level shown: MEMERY_PLUGIN_LOG, else warning.
    static let threshold: UInt32 = {
        guard let name = ProcessInfo.processInfo.environment["MEMERY_PLUGIN_LOG"], !name.isEmpty else { return MEMERY_LOG_WARNING.rawValue }
        guard let level = level(named: name) else {
            EnvironmentWarning.say("MEMERY_PLUGIN_LOG=\(name) is not one of debug, info, warning, error, off: showing warnings and errors")
            return MEMERY_LOG_WARNING.rawValue
        }
        return level
    }()

    /// Set in the helper process before any plugin runs: lines then go to the host to print.
    static var relaying: Bool {
        get { relayingFlag.load(ordering: .relaxed) }
        set { relayingFlag.store(newValue, ordering: .relaxed) }
    }
    private static let relayingFlag = Atomic<Bool>(false)

    static let relayMarker = "\u{1}memery-plugin-log\u{1}"

    static func level(named name: String?) -> UInt32? {
        switch name?.lowercased() {
        case "debug": MEMERY_LOG_DEBUG.rawValue
        case "info": MEMERY_LOG_INFO.rawValue
        case "warning": MEMERY_LOG_WARNING.rawValue
        case "error": MEMERY_LOG_ERROR.rawValue
        case "off", "none": UInt32.max
        default: nil
        }
    }

    static func levelName(_ level: UInt32) -> String {
        switch level {
        case MEMERY_LOG_DEBUG.rawValue: "debug"
        case MEMERY_LOG_INFO.rawValue: "info"
        case MEMERY_LOG_WARNING.rawValue: "warning"
        default: "error"
        }
    }

    /// The line as a person reads it: `org.example.posterize: warning: levels above 64 look flat`.
    static func line(source: String, level: UInt32, text: String) -> String {
        // One line per call, whatever the plugin put in it.
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(source): \(levelName(level)): \(flat)"
    }

    /// Called for each `host->log` (the `PluginCall` names the source).
    static func write(source: String, level: UInt32, text: String) {
        guard level >= threshold else { return }
        let line = line(source: source, level: level, text: text)
        FileHandle.standardError.write(Data(((relaying ? relayMarker : "") + line + "\n").utf8))
    }

    /// A helper's standard error without the relayed log lines, which are printed here.
    static func relay(_ errors: String) -> String {
        guard errors.contains(relayMarker) else { return errors }
        var rest = [Substring]()
        for line in errors.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(relayMarker) {
                FileHandle.standardError.write(Data((line.dropFirst(relayMarker.count) + "\n").utf8))
            } else {
                rest.append(line)
            }
        }
        return rest.joined(separator: "\n")
    }
}
