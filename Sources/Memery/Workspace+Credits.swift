public import Foundation
import MemeryCore
import MemeryRender

/// Crediting the pictures a creation took from the web, as their licences ask: the list
/// (`export --credits file`), or a line under the exported picture (`--credits caption`).
extension Workspace {
    /// The web pictures in a creation, each once: its base, then its image layers bottom first.
    public func credits(of name: String) throws -> [PictureOrigin] {
        Self.credits(of: try creation(named: name))
    }

    static func credits(of creation: Creation) -> [PictureOrigin] {
        var origins = [creation.baseImage?.origin].compactMap { $0 }
        for layer in creation.layers {
            if case .image(let content) = layer.content, let origin = content.image.origin { origins.append(origin) }
        }
        var seen = Set<String>()
        return origins.filter { seen.insert($0.credit).inserted }
    }

    /// The creation as exported, with a band under it holding one line of credits (written
    /// small, left-aligned, on black). Only the export has it: nothing is stored.
    @discardableResult
    public func exportWithCreditLine(_ name: String, to path: String, width: Int? = nil, format: ExportFormat,
                                     quality: Int = ExportFormat.defaultQuality, skipMissingFilters: Bool = false) throws -> Picture {
        var creation = try creation(named: name)
        let origins = Self.credits(of: creation)
        if !origins.isEmpty {
            let line = origins.map(\.credit).joined(separator: " · ")
            let band = max(28, creation.height / 16)
            for command in [
                CreationCommand.extendCanvas(CanvasMargins(bottom: band), background: Color(red: 0, green: 0, blue: 0), maxPixels: compositor.decoder.maxPixels),
                .addText(role: .free, text: line, box: Box(x: Double(band) / 4, y: Double(creation.height) + Double(band) / 8,
                                                               w: Double(creation.width) - Double(band) / 2, h: Double(band) * 3 / 4),
                         style: TextStyleChanges(font: "DejaVu Sans", maxSize: Double(band) / 2, fill: Color(red: 255, green: 255, blue: 255),
                                                 outlineWidth: 0, align: .left, uppercase: false)),
            ] {
                for event in try creation.decide(command) { creation = creation.evolve(event) }
            }
        }
        let picture = try picture(of: creation, width: width, format: format, quality: quality, skipMissingFilters: skipMissingFilters)
        try AtomicFile.write(picture.data, to: URL(fileURLWithPath: path))
        return picture
    }
}
