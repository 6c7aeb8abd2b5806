import ArgumentParser
import Memery

/// Prints the canvas's size after the edit, or the turned layer (or the whole result as JSON).
private func report(_ result: EditResult, _ output: ResultOptions) throws {
    try output.report(result) {
        if let layer = result.layer, let creation = result.state, let index = creation.layerIndex(layer) {
            print(Describe.line(creation.layers[index], position: index + 1))
        } else {
            print("\(result.state?.width ?? 0)x\(result.state?.height ?? 0)")
        }
    }
}

/// `--picture` or `--layer ID`: what a rotate or flip turns, when not the whole canvas.
struct TurnTargetOptions: ParsableArguments, ArgumentChecks {
    @Flag(help: "Turn the base picture alone, in place; the canvas and the layers stay.")
    var picture = false

    @Option(help: ArgumentHelp("Turn one layer alone, about its centre.", valueName: "id"))
    var layer: String?

    func checkArguments() throws {
        if picture && layer != nil { throw ValidationError("give --picture or --layer, not both") }
    }

    var target: TurnTarget { picture ? .picture : layer.map { .layer($0) } ?? .canvas }
}

struct CropCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "crop", abstract: "Crop the canvas to a rectangle inside it; layers keep their place on the picture.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    @Argument(help: "The creation's name.")
    var name: String

    // allUnrecognized: so that a box starting with a negative number is read as the box.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The rectangle to keep.", valueName: "x,y,w,h"))
    var boxes: [String] = []

    func checkArguments() throws {
        guard boxes.count == 1 else { throw ValidationError("give one rectangle as X,Y,W,H, e.g. 0,0,400,300") }
    }

    func run() throws {
        try report(try storeOptions.perform(.crop(try Box(parsing: boxes[0])), on: name), output)
    }
}

struct RotateCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "rotate", abstract: "Rotate the canvas clockwise by any angle; it grows to fit (quarter turns are exact).",
        discussion: "Layers turn with the canvas; top and bottom captions re-fit it, upright. --picture or --layer turns one thing alone.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    @Argument(help: "The creation's name.")
    var name: String

    @OptionGroup var turn: TurnTargetOptions

    // allUnrecognized: so that a negative angle is read as the angle, not as an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Degrees, clockwise; negative turns the other way.", valueName: "deg"))
    var degrees: [String] = []

    func checkArguments() throws {
        try turn.checkArguments()
        guard degrees.count == 1 else { throw ValidationError("give one angle in degrees, e.g. 90 or -30") }
    }

    func run() throws {
        guard let angle = Double(degrees[0]), angle.isFinite else {
            throw InputError("\"\(degrees[0])\" is not an angle: give degrees, e.g. 90 or -30")
        }
        try report(try storeOptions.perform(.rotate(degrees: angle, turn.target), on: name), output)
    }
}

struct FlipCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "flip", abstract: "Mirror the canvas: h (left-right) or v (top-bottom).",
        discussion: "Layers mirror with the canvas; top and bottom captions stay readable. --picture or --layer mirrors one thing alone.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Argument(help: "h or v.")
    var axis: FlipAxis

    @OptionGroup var turn: TurnTargetOptions

    func checkArguments() throws { try turn.checkArguments() }

    func run() throws {
        try report(try storeOptions.perform(.flip(axis, turn.target), on: name), output)
    }
}

struct CanvasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "canvas", abstract: "Grow the canvas, or fit it to what is on it.",
        discussion: "Layers keep their place on the picture; top and bottom captions re-fit the new canvas, as after a crop.",
        subcommands: [CanvasExtendCommand.self, CanvasFitCommand.self])
}

struct CanvasExtendCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "extend", abstract: "Add room on any side of the canvas, filled with a colour.",
        discussion: "E.g. `memery canvas extend drake --top 300` for white space above a photo to write in. The canvas may grow up to the pixel limit of an imported picture (100 megapixels unless MEMERY_MAX_MEGAPIXELS says otherwise).")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels to add on the left.", valueName: "px")) var left = 0
    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels to add at the top.", valueName: "px")) var top = 0
    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels to add on the right.", valueName: "px")) var right = 0
    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels to add at the bottom.", valueName: "px")) var bottom = 0

    @Option(help: ArgumentHelp("The canvas's colour from now on, in the new room and wherever nothing covers it, e.g. white, #202020 or transparent (default: the canvas's own; white behind a photo).", valueName: "colour"))
    var background: String?

    func checkArguments() throws {
        guard left != 0 || top != 0 || right != 0 || bottom != 0 || background != nil else {
            throw ValidationError("give room on a side: --top, --bottom, --left or --right in pixels, e.g. --bottom 600")
        }
    }

    func run() throws {
        let edit = Edit.extendCanvas(CanvasMargins(left: left, top: top, right: right, bottom: bottom),
                                     background: try background.map(Color.init(parsing:)))
        try report(try storeOptions.perform(edit, on: name), output)
    }
}

struct CanvasFitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit", abstract: "Grow or trim the canvas to hold the picture and the layers, with a margin.",
        discussion: "Top and bottom captions are not content: they re-fit whatever canvas results.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels left around the content.", valueName: "px")) var margin = 0

    @Option(help: ArgumentHelp("The canvas's colour when room is added, e.g. white or transparent (default: the canvas's own; white behind a photo).", valueName: "colour"))
    var background: String?

    func run() throws {
        let edit = Edit.fitCanvas(margin: margin, background: try background.map(Color.init(parsing:)))
        try report(try storeOptions.perform(edit, on: name), output)
    }
}
