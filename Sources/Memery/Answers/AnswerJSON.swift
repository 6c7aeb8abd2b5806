public import Foundation

/// The one way an answer becomes JSON, for `--json` and the editor's API alike: keys sorted
/// by their bytes, slashes left alone. The same keys, values and nulls as JSONSerialization
/// wrote before; only the order of keys that differ in case moved (JSONSerialization sorted
/// ignoring case: a filter's `params` came before `paramVersion`, now after). Clients read
/// keys by name; nothing depends on their order.
///
/// Compact answers are written by `SortedJSONEncoder`, which gives Foundation's bytes for
/// these options (the tests hold it to that) several times faster: a creation of 2,000
/// layers is an answer of about 1 MB, which the editor asks for after every edit. The
/// biggest, a creation's detail, is written by hand (`PlainlyWrittenAnswer`), to the same bytes.
public enum AnswerJSON {
    public static func data(_ answer: some Encodable, pretty: Bool = false) throws -> Data {
        guard pretty else {
            if let plain = (answer as? any PlainlyWrittenAnswer)?.plainJSON() { return plain }
            return try SortedJSONEncoder().encode(answer)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return try encoder.encode(answer)
    }
}
