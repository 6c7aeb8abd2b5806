import MemeryCore

/// Where words being typed go: a caption, or a text layer's words.
public enum TypedPlace: Sendable, Equatable {
    case caption(CaptionPosition)
    case layer(String)

    public enum CaptionPosition: String, Sendable { case top, bottom }
}

extension Workspace {
    /// The picture as the words being typed would leave it, stored nowhere: what the editor
    /// shows under a caption field at each pause in typing, before Enter stores one edit.
    /// The words are decided as the edit would be, so words the edit would refuse (too long,
    /// a layer that is not text) are refused here with the same message.
    public func preview(of name: String, typing text: String, into place: TypedPlace, width: Int?, format: ExportFormat?) throws -> Picture {
        let state = try creation(named: name)
        let command: CreationCommand
        switch place {
        case .caption(.top): command = .setCaptions(top: text, bottom: nil)
        case .caption(.bottom): command = .setCaptions(top: nil, bottom: text)
        case .layer(let id): command = .editText(id: id, text: text, box: nil, style: TextStyleChanges())
        }
        return try preview(of: state, after: command, width: width, format: format)
    }

    /// The picture as `command` would leave `state`, stored nowhere: every preview of an edit
    /// not yet made (words typed, a filter's settings) is this. Drawn as the editor's previews
    /// are (`preview(of:)`): nil picks JPEG for an opaque picture.
    func preview(of state: Creation, after command: CreationCommand, width: Int?, format: ExportFormat?) throws -> Picture {
        let next = state.evolve(try state.decide(command))
        return try pictures.picture(of: next, width: width, choosing: format, quality: 90, pngCompression: 1)
    }
}
