public import Foundation

/// Where the store lives: `--store DIR`, else `$MEMERY_STORE`, else `$XDG_DATA_HOME/memery`,
/// else `~/.local/share/memery`.
public enum StoreLocation {
    public static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if let store = environment["MEMERY_STORE"], !store.isEmpty { return URL(fileURLWithPath: store) }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data).appendingPathComponent("memery")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/memery")
    }
}
