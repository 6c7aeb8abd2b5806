import Foundation
import MemeryCore

/// Crediting the pictures a creation took from the web, as their licences ask: the list
/// (`export --credits file`), or a line under the exported picture (`--credits caption`).
enum PictureCredits {
    /// The web pictures in a creation, each once: its base, then its image layers bottom first.
    static func origins(of creation: Creation) -> [PictureOrigin] {
        var origins = [creation.baseImage?.origin].compactMap { $0 }
        for layer in creation.layers {
            if case .image(let content) = layer.content, let origin = content.image.origin { origins.append(origin) }
        }
        var seen = Set<String>()
        return origins.filter { seen.insert($0.credit).inserted }
    }

    /// The creation with a band under it holding one line of credits (written small,
    /// left-aligned, on black), decided in memory: nothing is stored.
    static func withCreditLine(_ creation: Creation, maxPixels: Int) throws -> Creation {
        let origins = origins(of: creation)
        guard !origins.isEmpty else { return creation }
        let line = origins.map(\.credit).joined(separator: " · ")
        let band = max(28, creation.height / 16)
        var banded = creation
        for command in [
            CreationCommand.extendCanvas(CanvasMargins(bottom: band), background: Color(red: 0, green: 0, blue: 0), maxPixels: maxPixels),
            .addText(role: .free, text: line, box: Box(x: Double(band) / 4, y: Double(creation.height) + Double(band) / 8,
                                                           w: Double(creation.width) - Double(band) / 2, h: Double(band) * 3 / 4),
                     style: TextStyleChanges(font: "DejaVu Sans", maxSize: Double(band) / 2, fill: Color(red: 255, green: 255, blue: 255),
                                             outlineWidth: 0, align: .left, uppercase: false)),
        ] {
            banded = banded.evolve(try banded.decide(command))
        }
        return banded
    }
}
