public import ArgumentParser  // a conformance of the engine's types to its protocol is public
import Foundation
public import Memery

extension FlipAxis: ExpressibleByArgument {}

struct ImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image", abstract: "Add stickers and photos as layers.", subcommands: [ImageAddCommand.self, ImageStickersCommand.self])
}

struct ImageAddCommand: AsyncParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a picture as a layer; prints its layer id.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Argument(help: "The picture to add.")
    var file: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("A garage image instead of a file, by name or the start of its hash.", valueName: "image"))
    var garage: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("An emoji sticker instead of a file: one to eight emoji, drawn by Noto Color Emoji.", valueName: "emoji"))
    var emoji: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("A sticker that ships with Memery instead of a file (`memery image stickers` lists them).", valueName: "name"))
    var sticker: String?

    @OptionGroup var link: LinkOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Its top-left corner in canvas pixels (default: centred).", valueName: "x,y"))
    var at: String?

    @Option(parsing: .unconditional, help: "A scale factor, 0.01 to 100.")
    var scale = 1.0

    @Option(parsing: .unconditional, help: ArgumentHelp("Degrees, clockwise; negative turns the other way.", valueName: "deg"))
    var rotate = 0.0

    @Option(parsing: .unconditional, help: "0 (invisible) to 1 (opaque).")
    var opacity = 1.0

    @Option(parsing: .unconditional, help: "Mirror it: h or v.")
    var flip: FlipAxis?

    @OptionGroup var output: ResultOptions

    func checkArguments() throws {
        try link.checkArguments()
        if [file, link.given, garage, emoji, sticker].compactMap({ $0 }).count != 1 {
            throw ValidationError("give one of a FILE, --url URL, --from-web RESULT, --garage IMAGE, --emoji EMOJI or --sticker NAME")
        }
    }

    func run() async throws {
        let downloaded = try await link.picture().map { Edit.ImageSource.picture($0) }
        let source: Edit.ImageSource = downloaded ?? garage.map { .garage($0) } ?? emoji.map { .emoji($0) } ?? sticker.map { .sticker($0) } ?? .file(file ?? "")
        let result = try storeOptions.perform(.addImage(source, at: try at.map(Point.init(parsing:)), scale: scale, rotation: rotate,
                                                        opacity: opacity, flip: flip), on: name)
        try output.report(result) { print(result.layer ?? "") }
    }
}

struct ShapeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shape", abstract: "Add rectangles and ellipses as layers.", subcommands: [ShapeAddCommand.self])
}

struct ShapeAddCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a rectangle or an ellipse; prints its layer id.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(parsing: .unconditional, help: ArgumentHelp("A rectangle in canvas pixels.", valueName: "x,y,w,h"))
    var rect: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("An ellipse filling this box.", valueName: "x,y,w,h"))
    var ellipse: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The fill colour, or none.", valueName: "colour"))
    var fill = "#ffffff"

    @Option(parsing: .unconditional, help: "The fill's opacity, 0 to 1.")
    var alpha = 1.0

    @Option(parsing: .unconditional, help: ArgumentHelp("An outline colour (default: no outline).", valueName: "colour"))
    var stroke: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The outline's width.", valueName: "px"))
    var strokeWidth = 2.0

    @OptionGroup var output: ResultOptions

    func checkArguments() throws {
        if (rect == nil) == (ellipse == nil) { throw ValidationError("give either --rect X,Y,W,H or --ellipse X,Y,W,H") }
    }

    func run() throws {
        let kind: ShapeContent.Kind = rect != nil ? .rect : .ellipse
        let box = try Box(parsing: rect ?? ellipse ?? "")
        let fillColor = fill.lowercased() == "none" ? nil : try Color(parsing: fill)
        let result = try storeOptions.perform(.addShape(
            kind, box: box, fill: fillColor, alpha: alpha, stroke: try stroke.map(Color.init(parsing:)), strokeWidth: strokeWidth), on: name)
        try output.report(result) { print(result.layer ?? "") }
    }
}

struct DrawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draw",
        abstract: "Draw a freehand stroke; prints the drawing layer's id.",
        discussion: "Without --layer a new drawing layer is made. --erase clears what earlier strokes of that drawing layer drew under it (by default the topmost drawing layer).")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The stroke's points in canvas pixels.", valueName: "\"x,y x,y ...\""))
    var points: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The stroke's colour.", valueName: "colour"))
    var color = "#000000"

    @Option(parsing: .unconditional, help: ArgumentHelp("The stroke's width.", valueName: "px"))
    var width = 6.0

    @Flag(help: "Erase instead of drawing.")
    var erase = false

    @Option(parsing: .unconditional, help: ArgumentHelp("The drawing layer to add to.", valueName: "id"))
    var layer: String?

    @OptionGroup var output: ResultOptions

    func run() throws {
        let parsed = try points.split(whereSeparator: \.isWhitespace).map { try Point(parsing: String($0)) }
        let result = try storeOptions.perform(.draw(points: parsed, width: width, color: try Color(parsing: color), erase: erase, layer: layer),
                                              on: name)
        try output.report(result) { print(result.layer ?? "") }
    }
}

struct ImageStickersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stickers", abstract: "List the stickers that ship with Memery, for `image add NAME --sticker STICKER`.")

    func run() throws {
        BundledStickers.names.forEach { print($0) }
    }
}
