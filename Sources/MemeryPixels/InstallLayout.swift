import Foundation

/// Where Memery's own files are, wherever `memery` runs from: beside the binary in a build
/// folder (`.build/release/memery` with `libmemery-builtins.so` and SwiftPM's resource
/// bundles next to it), or in an installed tree (`make install`, the Debian package):
///
///     PREFIX/bin/memery
///     PREFIX/lib/memery/libmemery-builtins.so     the built-in filters
///     PREFIX/lib/memery/plugins/                  plugins installed for every user
///     PREFIX/share/memery/editor/                 the web editor's files
///     PREFIX/share/memery/stickers/               the bundled stickers
///
/// Found from the running executable (/proc/self/exe), never from the clone or the current
/// folder, so an installed `memery` works from anywhere.
public enum InstallLayout {
    /// The folder of the running executable, symbolic links resolved.
    public static func executableDirectory() -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return Bundle.main.executableURL?.deletingLastPathComponent().path
        }
        return URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// PREFIX, when the executable sits in PREFIX/bin.
    static var installPrefix: URL? {
        guard let directory = executableDirectory() else { return nil }
        let url = URL(fileURLWithPath: directory)
        return url.lastPathComponent == "bin" ? url.deletingLastPathComponent() : nil
    }

    /// The folder holding `libmemery-builtins.so`: beside the binary (a build), else
    /// PREFIX/lib/memery (installed); the first is named when neither has it, so the
    /// error says where a build puts it.
    public static var builtinDirectory: String? {
        let candidates = [executableDirectory()].compactMap { $0 } + [installPrefix?.appendingPathComponent("lib/memery").path].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/" + FilterHost.builtinLibraryName) } ?? candidates.first
    }

    /// PREFIX/lib/memery/plugins of an installed `memery`: plugins for every user of the machine.
    public static var systemPluginDirectory: String? { installPrefix?.appendingPathComponent("lib/memery/plugins").path }

    /// A folder of Memery's resources: `bundle/inside` beside the binary (SwiftPM's layout),
    /// else PREFIX/share/memery/`installed`; nil when neither holds `marker`.
    public static func resourceFolder(bundle: String, inside: String, installed: String, marker: String) -> URL? {
        let binary = executableDirectory().map { URL(fileURLWithPath: $0) }
        var candidates = [Bundle.main.bundleURL, binary].compactMap { $0 }.map { $0.appendingPathComponent(bundle).appendingPathComponent(inside) }
        if let prefix = installPrefix { candidates.append(prefix.appendingPathComponent("share/memery").appendingPathComponent(installed)) }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(marker).path) }
    }
}
