public import Foundation
import MemeryCore

/// The stickers that ship with Memery: PNGs the project drew itself (scripts/make-stickers,
/// CC0), in this module's resources.
public enum BundledStickers {
    /// Their names, sorted.
    public static var names: [String] {
        guard let folder = stickerFolder,
              let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return files.filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// A bundled sticker's bytes; a name not among them is refused, listing those there are.
    public static func png(named name: String) throws -> Data {
        let known = names
        guard known.contains(name), let folder = stickerFolder,
              let data = FileManager.default.contents(atPath: folder.appendingPathComponent("\(name).png").path) else {
            throw DomainError.noSuchSticker(name, known: known)
        }
        return data
    }

    private static var stickerFolder: URL? { InstalledFiles.stickerFolder }
}
