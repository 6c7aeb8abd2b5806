public import Foundation
import MemeryCore
import MemeryRender

/// Crediting the pictures a creation took from the web (`PictureCredits`).
extension Workspace {
    /// The web pictures in a creation, each once: its base, then its image layers bottom first.
    public func credits(of name: String) throws -> [PictureOrigin] { PictureCredits.origins(of: try creation(named: name)) }

    /// The creation as exported, with a band under it holding one line of credits. Only the
    /// export has it: nothing is stored.
    @discardableResult
    public func exportWithCreditLine(_ name: String, to path: String, width: Int? = nil, format: ExportFormat,
                                     quality: Int = ExportFormat.defaultQuality, skipMissingFilters: Bool = false) throws -> Picture {
        let banded = try PictureCredits.withCreditLine(try creation(named: name), maxPixels: compositor.decoder.maxPixels)
        return try pictures.write(try pictures.picture(of: banded, width: width, format: format, quality: quality, skipMissingFilters: skipMissingFilters), to: path)
    }
}
