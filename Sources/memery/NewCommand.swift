import ArgumentParser
import Memery
import MemeryCore

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Start a creation from a picture or on a blank canvas; prints its name and id.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "A name for the creation, unique in the gallery (case is ignored).")
    var name: String

    @Option(help: ArgumentHelp("The base picture: PNG, JPEG, GIF, BMP, TIFF, WebP, AVIF, ...", valueName: "file"))
    var image: String?

    @Option(help: ArgumentHelp("A garage image, by name or the start of its hash.", valueName: "image"))
    var garage: String?

    @Option(help: ArgumentHelp("A template: its canvas, base image and text boxes.", valueName: "name"))
    var template: String?

    @Option(help: ArgumentHelp("A blank canvas of this size instead of a picture.", valueName: "WxH"))
    var canvas: String?

    @Option(help: ArgumentHelp("The blank canvas's colour.", valueName: "hex"))
    var background = "#ffffff"

    func validate() throws {
        if [image, garage, template, canvas].compactMap({ $0 }).count != 1 {
            throw ValidationError("give one of --image FILE, --garage IMAGE, --template T or --canvas WxH")
        }
    }

    func run() throws {
        let workspace = try storeOptions.open()
        let creation: Creation
        if let image {
            creation = try workspace.create(name: name, imageAt: image)
        } else if let garage {
            creation = try workspace.create(name: name, garageImage: garage)
        } else if let template {
            creation = try workspace.create(name: name, template: template)
        } else {
            let (width, height) = try CanvasSize.parse(canvas ?? "")
            creation = try workspace.create(name: name, canvasWidth: width, height: height, background: try Color(hex: background))
        }
        print("\(creation.name)\t\(creation.id.uuidString.lowercased())")
    }
}

enum CanvasSize {
    /// Parses `WxH`.
    static func parse(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x").map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1] else {
            throw InputError("\"\(text)\" is not a canvas size: use WxH, e.g. 800x600")
        }
        return (w, h)
    }
}
