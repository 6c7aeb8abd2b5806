import ArgumentParser
import Foundation
import Memery

struct LayerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layer", abstract: "List, change, remove, reorder and find layers.",
        subcommands: [LayerListCommand.self, LayerSetCommand.self, LayerRemoveCommand.self,
                      LayerMoveCommand.self, LayerAtCommand.self])
}

struct LayerListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the layers, bottom first.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let layers = try storeOptions.open().creation(named: name).layers
        if json {
            try printJSON(layers.enumerated().map { LayerAnswer($1, position: $0 + 1) })
        } else {
            for (index, layer) in layers.enumerated() { print(Describe.line(layer, position: index + 1)) }
        }
    }
}

struct LayerSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change a layer: memery layer set NAME ID KEY=VALUE...",
        discussion: "Keys: " + LayerChanges.keys.map { "\($0.key) (\($0.takes))" }.joined(separator: ", ") + ".")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Argument(help: "The layer's id.")
    var id: String

    @Argument(help: "KEY=VALUE pairs.")
    var settings: [String]

    @OptionGroup var output: ResultOptions

    func run() throws {
        let result = try storeOptions.perform(.setLayer(id: id, settings: try settings.map(Edit.Setting.init(parsing:))), on: name)
        try output.report(result) {
            if let creation = result.state, let index = creation.layerIndex(id) {
                print(Describe.line(creation.layers[index], position: index + 1))
            }
        }
    }
}

struct LayerRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a layer (undo brings it back).")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Argument(help: "The layer's id.")
    var id: String

    @OptionGroup var output: ResultOptions

    func run() throws {
        let result = try storeOptions.perform(.removeLayer(id: id), on: name)
        try output.report(result) {}
    }
}

struct LayerMoveCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Raise, lower or place a layer in the stack; prints its new position.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Argument(help: "The layer's id.")
    var id: String

    @Flag(help: "One step up.") var up = false
    @Flag(help: "One step down.") var down = false
    @Flag(help: "To the top.") var front = false
    @Flag(help: "To the bottom.") var back = false
    @Option(parsing: .unconditional, help: "To a position, as `layer list` numbers them (1 is the bottom).") var to: Int?
    @OptionGroup var output: ResultOptions

    func checkArguments() throws {
        if [up, down, front, back, to != nil].filter({ $0 }).count != 1 {
            throw ValidationError("give one of --up, --down, --front, --back or --to N")
        }
    }

    func run() throws {
        let move: LayerMove = up ? .up : down ? .down : front ? .front : back ? .back : .to(to ?? 1)
        let result = try storeOptions.perform(.moveLayer(id: id, move), on: name)
        let position = (result.state?.layerIndex(id) ?? 0) + 1
        try output.report(result, extra: ["position": position]) { print(position) }
    }
}

struct LayerAtCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "at", abstract: "The topmost layer at a point, as a tap selects it; exit 1 when there is none.")

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var result: ResultOptions

    @Argument(help: "The creation's name.")
    var name: String

    // allUnrecognized: so that a point left of the canvas ("-5,10") is read as the point.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("A canvas point.", valueName: "x,y"))
    var point: [String] = []

    func checkArguments() throws {
        guard point.count == 1 else { throw ValidationError("give one point as X,Y") }
    }

    func run() throws {
        let workspace = try storeOptions.open()
        let creation = try workspace.creation(named: name)
        let at = try Point(parsing: point[0])
        guard let layer = creation.topmostLayer(at: at), let index = creation.layerIndex(layer.id) else {
            throw InputError("no layer at \(at): only the base image is there")
        }
        try result.report(LayerAnswer(layer, position: index + 1)) { print(Describe.line(layer, position: index + 1)) }
    }
}
