import Foundation

/// The engine's messages are written for a terminal, where the way out may be an
/// environment variable; a page's reader cannot set one. Said in the page, that advice is
/// left out and the rest kept ("convert it to PNG").
enum PageWords {
    static func forThePage(_ message: String) -> String {
        var text = message
        // "…; convert it to PNG, or set MEMERY_X=y to let … try" and "(or set MEMERY_X=y to …)".
        for pattern in [#"\s*\(or set MEMERY_[A-Z_]+=[^)]*\)"#, #",? or set MEMERY_[A-Z_]+=[^;]*"#, #";? set MEMERY_[A-Z_]+=[^;]*"#] {
            text = text.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
        }
        return text
    }
}
