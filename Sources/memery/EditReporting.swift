import ArgumentParser
import Foundation
import Memery

/// `--json`, for every command that prints a result: numbers stay numbers.
struct ResultOptions: ParsableArguments {
    @Flag(help: "Print the result as JSON.")
    var json = false

    /// Prints a typed answer as JSON, or runs `text` to print the result for people.
    func report(_ answer: some Encodable, text: () throws -> Void) throws {
        if json { try printJSON(answer) } else { try text() }
    }

    /// Prints an edit's result: as JSON (`EditReport`, with `extra`'s fields beside), or by `text`.
    func report(_ result: EditResult, extra: (any Encodable)? = nil, text: () throws -> Void) throws {
        try report(EditReport(result: result, extra: extra), text: text)
    }
}

/// What every edit reports in JSON: the creation, its version, the sequence stored (null when
/// nothing changed), what the edit made or moved to, the canvas's size; and a command's own
/// fields beside them (`extra`).
struct EditReport: Encodable {
    var result: EditResult
    var extra: (any Encodable)?

    enum Keys: String, CodingKey { case width, height }

    func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder)
        if let state = result.state, state.hasCanvas {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(state.width, forKey: .width)
            try container.encode(state.height, forKey: .height)
        }
        try extra?.encode(to: encoder)
    }
}

extension StoreOptions {
    /// Opens the store and performs one edit (with `readingAhead`, a picture it takes, being
    /// read meanwhile).
    func perform(_ edit: Edit, on name: String?, readingAhead picture: PictureReadAhead? = nil) throws -> EditResult {
        try open().perform(edit, on: name, readingAhead: picture)
    }
}
