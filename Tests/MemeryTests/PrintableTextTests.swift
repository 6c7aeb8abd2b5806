import Testing
@testable import Memery

@Suite struct PrintableTextTests {
    @Test func controlsQuotesAndOverridesAreSpelledOut() {
        #expect(PrintableText.escaped("plain words, émoji 🐈 and 日本語") == "plain words, émoji 🐈 and 日本語")
        #expect(PrintableText.escaped("a\nb\tc\rd") == #"a\nb\tc\rd"#)
        #expect(PrintableText.escaped("\u{1B}[31mred\u{7F}\u{85}") == #"\u{1B}[31mred\u{7F}\u{85}"#)
        #expect(PrintableText.escaped("say \"hi\" C:\\x") == #"say \"hi\" C:\\x"#)
        #expect(PrintableText.escaped("\u{202E}txt.exe\u{2066}\u{200F}") == #"\u{202E}txt.exe\u{2066}\u{200F}"#)
    }

    @Test func unquotedLeavesQuotesAndBackslashesAsWritten() {
        #expect(PrintableText.unquoted(#"Dad's "best" joke \o/"#) == #"Dad's "best" joke \o/"#)
        #expect(PrintableText.unquoted("a\tb\u{1B}[2J\u{202E}\"") == #"a\tb\u{1B}[2J\u{202E}""#)
        #expect(PrintableText.unquoted("日本語 🐈") == "日本語 🐈")
    }

    @Test func quotedCutsByCharactersBeforeEscaping() {
        #expect(PrintableText.quoted("short") == "\"short\"")
        #expect(PrintableText.quoted(String(repeating: "é", count: 40), limit: 40) == "\"" + String(repeating: "é", count: 40) + "\"")
        #expect(PrintableText.quoted(String(repeating: "é", count: 41), limit: 40) == "\"" + String(repeating: "é", count: 39) + "…\"")
        // An escape is never cut in half: the cut is of the words, the escapes are of what is left.
        #expect(PrintableText.quoted(String(repeating: "x", count: 38) + "\n\n\n", limit: 40) == "\"" + String(repeating: "x", count: 38) + #"\n…""#)
    }
}
