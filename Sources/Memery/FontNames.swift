import MemeryCore
import MemeryRender

/// A font family people can name in a text style.
public struct FontFamily: Sendable, Equatable, Encodable {
    public var name: String
    /// What Memery uses it for by default, if anything.
    public var role: String?
}

/// Fonts by the names people give them: the families installed, and a command's font named
/// as installed, or refused before anything is stored.
enum FontNames {
    /// The families installed here that can set words, the meme faces marked.
    static func families() -> [FontFamily] {
        FontCatalog.families.map { name in
            switch name {
            case TextStyle.defaultFont: FontFamily(name: name, role: "the meme default: condensed, upper case only")
            case TextStyle.mixedCaseFont: FontFamily(name: name, role: "mixed-case text in the default style (caps off), in its heaviest weight")
            default: FontFamily(name: name, role: nil)
            }
        }
    }

    /// The command with its font named as installed ("comic neue" becomes "Comic Neue").
    /// Refuses a family that is not installed, naming the nearest ones: fontconfig would
    /// quietly set it in another face.
    static func resolving(_ command: CreationCommand) throws -> CreationCommand {
        func resolved(_ style: TextStyleChanges) throws -> TextStyleChanges {
            guard let named = style.font else { return style }
            guard let installed = FontCatalog.installed(named) else {
                let closest = FontCatalog.closest(to: named)
                let list = closest.count > 1 ? closest.dropLast().joined(separator: ", ") + " or " + closest[closest.count - 1]
                    : closest.first ?? TextStyle.defaultFont
                throw MemeryError(.badInput, "no font named \"\(named)\" is installed here: try \(list) (`memery fonts` lists them all)")
            }
            var style = style
            style.font = installed
            return style
        }
        switch command {
        case let .addText(role, text, box, style): return .addText(role: role, text: text, box: box, style: try resolved(style))
        case let .editText(id, text, box, style): return .editText(id: id, text: text, box: box, style: try resolved(style))
        case let .setCaptions(top, bottom, style): return .setCaptions(top: top, bottom: bottom, style: try resolved(style))
        case let .changeLayer(id, changes):
            var changes = changes
            changes.style = try resolved(changes.style)
            return .changeLayer(id: id, changes)
        default: return command
        }
    }
}
