import ArgumentParser
import Foundation
import Memery

struct GarageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "garage", abstract: "Keep imported images, with names and tags, to start creations from or add as layers.",
        subcommands: [GarageAddCommand.self, GarageListCommand.self, GarageRemoveCommand.self, GarageTagCommand.self])
}

struct GarageAddCommand: AsyncParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Import an image into the garage; prints its name.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The image file.") var file: String?
    @OptionGroup var link: LinkOptions
    @Option(parsing: .unconditional, help: "A name (default: the file's name, made unique).") var name: String?
    @Option(help: "A tag to find it by; repeat for more.") var tag: [String] = []
    @OptionGroup var output: ResultOptions

    func checkArguments() throws {
        try link.checkArguments()
        if (file == nil) == (link.given == nil) { throw ValidationError("give an image FILE, --url URL or --from-web RESULT") }
    }

    func run() async throws {
        let edit: Edit = try await link.picture().map { .garageAddPicture($0, name: name, tags: tag) }
            ?? .garageAdd(file: file ?? "", name: name, tags: tag)
        let result = try storeOptions.perform(edit, on: nil)
        let item = result.garageItem
        try output.report(result, extra: GarageImportAnswer(name: item?.name ?? "", blob: item?.image.blob ?? "", tags: item?.tags ?? [])) {
            print(PrintableText.unquoted(item?.name ?? ""))
        }
    }
}

struct GarageListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the garage's images.")
    @OptionGroup var storeOptions: StoreOptions
    @Option(parsing: .unconditional, help: "Only images whose name or a tag contains this (ignoring case).") var search: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let items = try storeOptions.open().garage().search(search ?? "")
        if json {
            try printJSON(items.map(GarageItemAnswer.init))
        } else if items.isEmpty {
            print(search == nil ? "the garage is empty: `memery garage add FILE` imports one" : "nothing matches \(PrintableText.quoted(search ?? ""))")
        } else {
            for item in items {
                print("\(PrintableText.unquoted(item.name))\t\(item.image.width)x\(item.image.height)\t\(item.image.format)\t\(item.image.blob.prefix(12))\(hashTags(item.tags, after: "\t"))")
            }
        }
    }
}

struct GarageRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Take an image out of the garage (creations that use it keep it).")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The image's name or the start of its hash.") var image: String

    @OptionGroup var output: ResultOptions

    func run() throws { try output.report(try storeOptions.perform(.garageRemove(image: image), on: nil)) {} }
}

struct GarageTagCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Add tags to a garage image (or take them off with --remove); prints its tags.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The image's name or the start of its hash.") var image: String
    @Argument(help: "Tags to add.") var tags: [String] = []
    @Option(name: .long, help: ArgumentHelp("A tag to take off (repeatable).", valueName: "tag")) var remove: [String] = []

    @OptionGroup var output: ResultOptions

    func checkArguments() throws {
        guard !tags.isEmpty || !remove.isEmpty else { throw ValidationError("give tags to add, or --remove TAG") }
    }

    func run() throws {
        let result = try storeOptions.perform(.garageTag(image: image, add: tags, remove: remove), on: nil)
        try output.report(result) { print(hashTags(result.garageItem?.tags ?? [], after: "")) }
    }
}

struct TemplateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template", abstract: "Save creations as templates and list them; `memery new NAME --template T` uses one.",
        subcommands: [TemplateSaveCommand.self, TemplateListCommand.self, TemplateRemoveCommand.self, TemplatePublishCommand.self, TemplateUnpublishCommand.self])
}

struct TemplateSaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save a creation's canvas, base image and text boxes (with their styles) as a template.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String
    @Argument(help: "The template's name.") var template: String
    @OptionGroup var output: ResultOptions

    func run() throws {
        let workspace = try storeOptions.open()
        let result = try workspace.perform(.saveTemplate(name: template), on: name)
        let saved = try workspace.templates().find(template)
        let fields = TemplateSavedAnswer(template: saved.name, width: saved.canvas.width, height: saved.canvas.height,
                                         textBoxes: saved.layers.count)
        try output.report(result, extra: fields) {
            print("\(PrintableText.unquoted(saved.name))\t\(saved.canvas.width)x\(saved.canvas.height)\t\(saved.layers.count) text box(es)")
        }
    }
}

struct TemplateRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Take a template off the list (creations started from it keep what they took).")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The template's name.") var template: String
    @OptionGroup var output: ResultOptions

    func run() throws { try output.report(try storeOptions.perform(.removeTemplate(name: template), on: nil)) {} }
}

struct TemplateListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the templates.")
    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let all = try storeOptions.open().templates().all
        if json {
            try printJSON(all.map(TemplateAnswer.init))
        } else if all.isEmpty {
            print("no templates yet: `memery template save NAME TEMPLATE` makes one")
        } else {
            for t in all { print("\(PrintableText.unquoted(t.name))\t\(t.canvas.width)x\(t.canvas.height)\t\(t.layers.count) text box(es)") }
        }
    }
}

/// What `garage add --json` prints beside the edit: the image as the garage keeps it.
struct GarageImportAnswer: Encodable {
    var name: String
    var blob: String
    var tags: [String]
}

/// What `template save --json` prints beside the edit: the template kept.
struct TemplateSavedAnswer: Encodable {
    var template: String
    var width: Int
    var height: Int
    var textBoxes: Int
}

/// A garage image's tags as `garage list` and `garage tag` print them (`#funny #cats`),
/// each escaped for the terminal: tags come from other devices too. Nothing when none.
func hashTags(_ tags: [String], after separator: String) -> String {
    tags.isEmpty ? "" : separator + tags.map { "#" + PrintableText.unquoted($0) }.joined(separator: " ")
}
