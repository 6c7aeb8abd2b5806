public import Foundation
import MemeryRender

/// Memery's own files that front ends need, found where a build or an install put them
/// (InstallLayout): an environment variable names another folder, for trying changes
/// without rebuilding.
public enum InstalledFiles {
    /// The web editor's folder (index.html, app/): `MEMERY_EDITOR_DIR`, else SwiftPM's
    /// bundle beside the binary, else PREFIX/share/memery/editor.
    public static var editorFolder: URL? {
        if let dir = ProcessInfo.processInfo.environment["MEMERY_EDITOR_DIR"] { return URL(fileURLWithPath: dir) }
        return InstallLayout.resourceFolder(bundle: "Memery_MemeryServer.resources", inside: "Editor", installed: "editor", marker: "index.html")
    }

    /// The bundled stickers' folder: `MEMERY_STICKERS_DIR`, else SwiftPM's bundle beside the
    /// binary, else PREFIX/share/memery/stickers. (Found by hand: `Bundle.module` stops the
    /// process when the bundle was not copied with the binary.)
    public static var stickerFolder: URL? {
        if let dir = ProcessInfo.processInfo.environment["MEMERY_STICKERS_DIR"] { return URL(fileURLWithPath: dir) }
        return InstallLayout.resourceFolder(bundle: "Memery_Memery.resources", inside: "Stickers", installed: "stickers", marker: "LICENSE")
    }
}
