public import Foundation

/// The one way an answer becomes JSON, for `--json` and the editor's API alike: keys sorted,
/// slashes left alone (as JSONSerialization wrote them before, byte for byte).
public enum AnswerJSON {
    public static func data(_ answer: some Encodable, pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(answer)
    }
}
