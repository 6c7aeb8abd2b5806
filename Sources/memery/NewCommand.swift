import ArgumentParser
import Foundation
import Memery

struct NewCommand: AsyncParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Start a creation from a picture or on a blank canvas; prints its name and id.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "A name for the creation, unique in the gallery (case is ignored).")
    var name: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The base picture: PNG, JPEG, GIF, BMP, TIFF, WebP, AVIF, ...", valueName: "file"))
    var image: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("A garage image, by name or the start of its hash.", valueName: "image"))
    var garage: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("A template: its canvas, base image and text boxes.", valueName: "name"))
    var template: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("A blank canvas of this size instead of a picture.", valueName: "WxH"))
    var canvas: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The blank canvas's colour.", valueName: "colour"))
    var background = "#ffffff"

    @Option(parsing: .unconditional, help: ArgumentHelp("An entry of a hub's library (`memery search`, `memery recommended`), by id.", valueName: "id"))
    var fromHub: String?

    @OptionGroup var link: LinkOptions

    @OptionGroup var hubOptions: PublicHubOptions

    @OptionGroup var output: ResultOptions

    func checkArguments() throws {
        try link.checkArguments()
        if [image, link.given, garage, template, canvas, fromHub].compactMap({ $0 }).count != 1 {
            throw ValidationError("give one of --image FILE, --url URL, --from-web RESULT, --garage IMAGE, --template T, --canvas WxH or --from-hub ID")
        }
        if hubOptions.hub != nil, fromHub == nil { throw ValidationError("--hub goes with --from-hub") }
    }

    func run() async throws {
        if let fromHub { return try await startFromHub(storeOptions, hubOptions, id: fromHub, name: name) }
        let source: Edit.NewSource
        if let image {
            source = .image(file: image)
        } else if let picture = try await link.picture() {
            source = .picture(picture)
        } else if let garage {
            source = .garage(garage)
        } else if let template {
            source = .template(template)
        } else {
            let size = try CanvasSize(parsing: canvas ?? "")
            source = .canvas(width: size.width, height: size.height, background: try Color(parsing: background))
        }
        // The picture is read and decoded (in its helper) while the store opens; for most
        // commands that began before the arguments were parsed (`PictureReadAheadAtStart`).
        let picture = image.map { PictureReadAheadAtStart.taken(for: $0) ?? PictureReadAhead(path: $0) }
        let result = try storeOptions.perform(.new(source), on: name, readingAhead: picture)
        let id = result.state?.id.uuidString.lowercased() ?? ""
        try output.report(result, extra: ["id": id]) { print("\(result.creation ?? name)\t\(id)") }
    }
}
