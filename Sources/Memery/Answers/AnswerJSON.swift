public import Foundation

/// The one way an answer becomes JSON, for `--json` and the editor's API alike: keys sorted
/// by their bytes, slashes left alone. The same keys, values and nulls as JSONSerialization
/// wrote before; only the order of keys that differ in case moved (JSONSerialization sorted
/// ignoring case: a filter's `params` came before `paramVersion`, now after). Clients read
/// keys by name; nothing depends on their order.
public enum AnswerJSON {
    public static func data(_ answer: some Encodable, pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(answer)
    }
}
