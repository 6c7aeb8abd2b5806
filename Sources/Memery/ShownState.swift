public import Foundation
import MemeryCore

/// A creation as it is shown at one point of its history: the state, and the history node
/// it is the state after. Two points that show the same node show the same picture, so
/// `(id, node)` names a picture for caches (an HTTP ETag).
public struct ShownState: Sendable {
    public var creation: Creation
    /// The history version of the edit shown (the node `history` lists and `checkout --event` takes).
    public var node: UInt64
    /// The creation's id: the picture's name survives renames.
    public var id: UUID { creation.id }
}

extension Workspace {
    /// The creation at its head, or as it was right after event `version` of its stream (the
    /// number an edit answers with; after an undo, the state the undo went back to).
    public func shownState(of name: String, afterEvent version: UInt64? = nil) throws -> ShownState {
        let head = try head(of: name)
        // After the stream's last event is the head itself: the preview the editor asks for
        // after each edit needs no history.
        guard let version, version != head.streamVersion else {
            return ShownState(creation: head.state, node: head.headVersion ?? head.streamVersion)
        }
        let history = try history(of: name)
        let node = try history.head(afterEvent: version)
        var state = history.state(at: node)
        state.name = history.state.name
        return ShownState(creation: state, node: history.nodes[node].version)
    }

    /// The picture of a shown state, encoded, at its own size or scaled down to `width`.
    public func picture(of shown: ShownState, width: Int? = nil, format: ExportFormat,
                        quality: Int = ExportFormat.defaultQuality) throws -> Picture {
        try pictures.picture(of: shown.creation, width: width, format: format, quality: quality)
    }

    /// The picture an editor shows of a shown state, `width` pixels wide at most. With no
    /// format (nil), JPEG when every pixel is opaque and PNG otherwise; PNG is written with
    /// zlib's fastest level. For a 1280-pixel preview of a photo JPEG takes about 5 ms where
    /// PNG takes 100 to 550 (`memery-bench preview`), and an edit waits on it.
    public func preview(of shown: ShownState, width: Int?, format: ExportFormat?, quality: Int) throws -> Picture {
        try pictures.picture(of: shown.creation, width: width, choosing: format, quality: quality, pngCompression: 1)
    }
}
