import Foundation

/// A setting in the environment that memery cannot use is said once, on standard error, by
/// the process the user started (not again by its helpers), with what is used instead.
enum EnvironmentWarning {
    static let helperMarker = "MEMERY_IN_HELPER"

    static func say(_ text: String) {
        guard ProcessInfo.processInfo.environment[helperMarker] == nil else { return }
        FileHandle.standardError.write(Data("warning: \(text)\n".utf8))
    }
}
