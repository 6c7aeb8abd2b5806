import ArgumentParser
import Foundation
import Memery

struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter", abstract: "List filters and apply them to a creation's base image, layers or canvas.",
        subcommands: [FilterListCommand.self, FilterInfoCommand.self, FilterApplyCommand.self, FilterSetCommand.self, FilterRemoveCommand.self])
}

enum FilterText {
    static func param(_ p: FilterDescriptor.Param) -> String {
        var range = ""
        if p.kind == .number || p.kind == .integer { range = " \(DomainError.number(p.min))…\(DomainError.number(p.max))" }
        if p.kind == .choice { range = " (" + p.choices.joined(separator: " | ") + ")" }
        let unit = p.unit == .none ? "" : " \(p.unit.rawValue)"
        return "\(p.id)=\(p.defaultValue)  \(p.kind.rawValue)\(range)\(unit)"
    }

    static func warnAboutSkippedPlugins() {
        for warning in FilterCatalog.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
    }
}

struct FilterListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the installed filters and their parameters.")
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let filters = FilterCatalog.filters  // reads every catalog, so the warnings are complete
        FilterText.warnAboutSkippedPlugins()
        if json {
            try printJSON(filters.map(FilterAnswer.init))
            return
        }
        for f in filters {
            print("\(f.id)\t\(f.name)\t\(f.origin.rawValue)\t" + f.params.map { "\($0.id)=\($0.defaultValue)" }.joined(separator: " "))
        }
    }
}

struct FilterInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Describe one filter and its parameters.")
    @Argument(help: "The filter's id, e.g. org.memery.sepia.") var id: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let f = try FilterCatalog.filter(id)
        if json { try printJSON(FilterAnswer(f)); return }
        print("\(f.id) — \(f.name)")
        if let description = f.description { print(description) }
        print("origin: \(f.origin.rawValue) (\(f.library))")
        print("parameter version: \(f.paramVersion)\(f.deterministic ? ", deterministic" : "")")
        print(f.params.isEmpty ? "parameters: none" : "parameters:")
        for p in f.params { print("  " + FilterText.param(p) + (p.description.map { "  — \($0)" } ?? "")) }
    }
}

struct FilterApplyCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "apply", abstract: "Add a filter to the base image (default), a layer or the whole canvas; prints its position.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String
    @Argument(help: "The filter's id.") var id: String
    @Argument(help: "PARAM=VALUE settings; the others keep their defaults.") var settings: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp("Filter this layer only.", valueName: "id")) var layer: String?
    @Flag(help: "Filter the whole picture, layers included.") var canvas = false
    @OptionGroup var output: ResultOptions

    func checkArguments() throws {
        if layer != nil && canvas { throw ValidationError("give --layer ID or --canvas, not both") }
    }

    func run() throws {
        let edit = Edit.applyFilter(filter: id, settings: try settings.map(Edit.Setting.init(parsing:)), layer: layer, canvas: canvas)
        let result = try storeOptions.perform(edit, on: name)
        try output.report(result) { print(result.filter ?? 0) }
    }
}

struct FilterSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change a filter's parameters: memery filter set NAME INDEX PARAM=VALUE...")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String
    @Argument(help: "The filter's position, as `memery show` lists them (1 first).") var index: Int
    @Argument(help: "PARAM=VALUE settings.") var settings: [String]
    @OptionGroup var output: ResultOptions

    func run() throws {
        let edit = Edit.setFilter(position: index, settings: try settings.map(Edit.Setting.init(parsing:)))
        try output.report(try storeOptions.perform(edit, on: name)) {}
    }
}

struct FilterRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a filter (undo brings it back).")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The creation's name.") var name: String
    @Argument(help: "The filter's position, as `memery show` lists them (1 first).") var index: Int

    @OptionGroup var output: ResultOptions

    func run() throws { try output.report(try storeOptions.perform(.removeFilter(position: index), on: name)) {} }
}
