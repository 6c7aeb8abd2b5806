public import ArgumentParser  // a conformance of the engine's types to its protocol is public
public import Memery

struct TextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Set the top and bottom captions, or add a free text box.",
        subcommands: [TextCaptionsCommand.self, TextAddCommand.self],
        defaultSubcommand: TextCaptionsCommand.self)
}

struct TextCaptionsCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "captions",
        abstract: "Set or replace the top and bottom captions (`memery text NAME --top ...`); an empty string removes one.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @OptionGroup var captions: CaptionOptions
    @OptionGroup var style: TextStyleOptions
    @OptionGroup var output: ResultOptions

    func checkArguments() throws {
        if captions.top == nil && captions.bottom == nil { throw ValidationError("give --top TEXT, --bottom TEXT or both") }
    }

    func run() throws {
        let result = try storeOptions.perform(.captions(top: captions.top, bottom: captions.bottom, style: try style.changes()), on: name)
        let captions = [TextContent.Role.top, .bottom].compactMap { role in result.state?.caption(role).map { (role, $0) } }
        try output.report(result, extra: ["captions": captions.map { ["role": $0.0.rawValue, "layer": $0.1.label, "layerId": $0.1.id, "text": $0.1.text?.text ?? ""] }]) {
            for (role, layer) in captions { print("\(role)\t\(PrintableText.escaped(layer.label))\t\(PrintableText.escaped(layer.text?.text ?? ""))") }
        }
    }
}

struct TextAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a free text box; prints its layer id.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Argument(help: "The words to show.")
    var text: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The box in canvas pixels; by default a wide box across the middle.", valueName: "x,y,w,h"))
    var box: String?

    @OptionGroup var style: TextStyleOptions
    @OptionGroup var output: ResultOptions

    func run() throws {
        let result = try storeOptions.perform(.addText(text: text, box: try box.map(Box.init(parsing:)), style: try style.changes()), on: name)
        try output.report(result) { print(result.layer ?? "") }
    }
}

/// How text looks, for the commands that set captions or add a text box.
struct TextStyleOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "The font family (`memery fonts` lists them; fallback fonts fill in other scripts and emoji).")
    var font: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The largest size in pixels; the text shrinks to fit its box.", valueName: "px"))
    var size: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The fill colour: #RRGGBB[AA] or a CSS name.", valueName: "colour"))
    var color: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The outline colour.", valueName: "colour"))
    var outline: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The outline width; by default a twentieth of the size.", valueName: "px"))
    var outlineWidth: Double?

    @Option(parsing: .unconditional, help: "left, center or right.")
    var align: TextStyle.Alignment?

    @Flag(help: "Keep the letters as typed instead of upper case (the default face, upper case only, gives way to \(TextStyle.mixedCaseFont)).")
    var noCaps = false

    func changes() throws -> TextStyleChanges {
        TextStyleChanges(font: font, maxSize: size, fill: try color.map(Color.init(parsing:)),
                         outline: try outline.map(Color.init(parsing:)), outlineWidth: outlineWidth,
                         align: align, uppercase: noCaps ? false : nil)
    }
}

extension TextStyle.Alignment: ExpressibleByArgument {}
