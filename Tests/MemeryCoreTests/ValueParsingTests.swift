import Testing
import MemeryCore

@Suite struct ValueParsingTests {
    @Test func coloursParseInShortLongAndAlphaForms() throws {
        #expect(try Color(hex: "#fff") == .white)
        #expect(try Color(hex: "000000") == .black)
        #expect(try Color(hex: "#11223344") == Color(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44))
        #expect(try Color(hex: "#11223344").hex == "#11223344")
        #expect(Color.white.hex == "#ffffff")
    }

    /// Every value of a channel, in each place, spelled with two lowercase digits; the alpha
    /// only when not opaque; and read back as itself.
    @Test func coloursSpellEveryChannelValueAndReadBack() throws {
        func two(_ v: UInt8) -> String { (v < 16 ? "0" : "") + String(v, radix: 16) }
        for v in UInt8.min...UInt8.max {
            for colour in [Color(red: v, green: 0, blue: 0), Color(red: 1, green: v, blue: 2), Color(red: 3, green: 4, blue: v),
                           Color(red: 5, green: 6, blue: 7, alpha: v)] {
                let expected = "#" + two(colour.red) + two(colour.green) + two(colour.blue) + (colour.alpha == 255 ? "" : two(colour.alpha))
                guard colour.hex == expected, try Color(hex: colour.hex) == colour else {
                    Issue.record("\(colour.red),\(colour.green),\(colour.blue),\(colour.alpha) spelled \(colour.hex), not \(expected)")
                    return
                }
            }
        }
    }

    @Test(arguments: ["", "#12", "#ggg", "red", "#1234567"])
    func badColoursAreRefusedWithAHint(_ text: String) {
        #expect(throws: DomainError.invalidColor(text)) { try Color(hex: text) }
        #expect(DomainError.invalidColor(text).description.contains("#RRGGBB"))
    }

    @Test func boxesParseFromXYWH() throws {
        #expect(try Box(parsing: "10,20,300,40") == Box(x: 10, y: 20, w: 300, h: 40))
        #expect(try Box(parsing: " 1.5, 2 ,3,4") == Box(x: 1.5, y: 2, w: 3, h: 4))
        #expect(Box(x: 53, y: 234.10000000000002, w: 564.125, h: 100).description == "53,234.1,564.13,100", "shown to two decimals at most")
        #expect(throws: DomainError.invalidBox("1,2,3")) { try Box(parsing: "1,2,3") }
        #expect(throws: DomainError.invalidBox("a,b,c,d")) { try Box(parsing: "a,b,c,d") }
        #expect(throws: DomainError.invalidBox("1,2,inf,4")) { try Box(parsing: "1,2,inf,4") }
    }

}
