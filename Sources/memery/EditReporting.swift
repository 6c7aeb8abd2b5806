import ArgumentParser
import Foundation
import Memery

/// `--json`, for every command that prints a result: numbers stay numbers.
struct ResultOptions: ParsableArguments {
    @Flag(help: "Print the result as JSON.")
    var json = false

    /// Prints `fields` as one JSON object, or runs `text` to print the result for people.
    func report(_ fields: [String: Any], text: () throws -> Void) throws {
        if json { try printJSON(fields) } else { try text() }
    }

    /// Prints an edit's result: as JSON (`EditReport.fields` plus `extra`), or by `text`.
    func report(_ result: EditResult, extra: [String: Any] = [:], text: () throws -> Void) throws {
        try report(EditReport.fields(result).merging(extra) { $1 }, text: text)
    }
}

enum EditReport {
    /// What every edit reports in JSON: the creation, its version, the sequence stored
    /// (null when nothing changed), and what the edit made or moved to.
    static func fields(_ result: EditResult) -> [String: Any] {
        var fields = JSONShapes.editResult(result)
        if let state = result.state, state.hasCanvas { fields["width"] = state.width; fields["height"] = state.height }
        return fields
    }
}

extension StoreOptions {
    /// Opens the store and performs one edit.
    func perform(_ edit: Edit, on name: String?) throws -> EditResult {
        try open().perform(edit, on: name)
    }
}
