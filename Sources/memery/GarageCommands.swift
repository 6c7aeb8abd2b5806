import ArgumentParser
import Foundation
import Memery
import MemeryCore

struct GarageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "garage", abstract: "Keep imported images, with names and tags, to start creations from or add as layers.",
        subcommands: [GarageAddCommand.self, GarageListCommand.self, GarageRemoveCommand.self])
}

struct GarageAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Import an image into the garage; prints its name.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The image file.") var file: String
    @Option(help: "A name (default: the file's name, made unique).") var name: String?
    @Option(help: "A tag to find it by; repeat for more.") var tag: [String] = []

    func run() throws {
        print(try storeOptions.open().addToGarage(imageAt: file, name: name, tags: tag).name)
    }
}

struct GarageListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the garage's images.")
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Only images whose name or a tag contains this (ignoring case).") var search: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let items = try storeOptions.open().garage().search(search ?? "")
        if json {
            try printJSON(items.map { ["name": $0.name, "tags": $0.tags, "image": Describe.image($0.image)] as [String: Any] })
        } else if items.isEmpty {
            print(search == nil ? "the garage is empty: `memery garage add FILE` imports one" : "nothing matches \"\(search ?? "")\"")
        } else {
            for item in items {
                let tags = item.tags.isEmpty ? "" : "\t#" + item.tags.joined(separator: " #")
                print("\(item.name)\t\(item.image.width)x\(item.image.height)\t\(item.image.format)\t\(item.image.blob.prefix(12))\(tags)")
            }
        }
    }
}

struct GarageRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Take an image out of the garage (creations that use it keep it).")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The image's name or the start of its hash.") var image: String

    func run() throws { try storeOptions.open().removeFromGarage(image) }
}

struct TemplateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template", abstract: "Save creations as templates and list them; `memery new NAME --template T` uses one.",
        subcommands: [TemplateSaveCommand.self, TemplateListCommand.self])
}

struct TemplateSaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save a creation's canvas, base image and text boxes (with their styles) as a template.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String
    @Argument(help: "The template's name.") var template: String

    func run() throws {
        let saved = try storeOptions.open().saveTemplate(from: name, as: template)
        print("\(saved.name)\t\(saved.canvas.width)x\(saved.canvas.height)\t\(saved.layers.count) text box(es)")
    }
}

struct TemplateListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the templates.")
    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let all = try storeOptions.open().templates().all
        if json {
            try printJSON(all.map { t in
                ["name": t.name, "width": t.canvas.width, "height": t.canvas.height,
                 "baseImage": t.baseImage.map { Describe.image($0) as Any } ?? NSNull(),
                 "layers": t.layers.enumerated().map { Describe.layer($1, position: $0 + 1) }] as [String: Any]
            })
        } else if all.isEmpty {
            print("no templates yet: `memery template save NAME TEMPLATE` makes one")
        } else {
            for t in all { print("\(t.name)\t\(t.canvas.width)x\(t.canvas.height)\t\(t.layers.count) text box(es)") }
        }
    }
}
