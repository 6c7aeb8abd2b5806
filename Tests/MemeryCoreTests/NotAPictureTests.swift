import Foundation
import MemeryCore
import Testing

@Suite struct NotAPictureTests {
    @Test func whatIsCertainlyNoPictureIsNamed() {
        let cases: [(String, [UInt8], String?)] = [
            ("text", Array("Shopping: milk, eggs\n\ttea\r\n".utf8), "text"),
            ("text with a byte-order mark", [0xEF, 0xBB, 0xBF] + Array("notes".utf8), "text"),
            ("accents and emoji", Array("café 🐱 naïve".utf8), "text"),
            ("a web page", Array("\n  <!DOCTYPE html><html><img src=cat.jpg>".utf8), "a web page (HTML)"),
            ("JSON", Array("{\"cat\": 1}".utf8), "JSON data"),
            ("XML", Array("<?xml version=\"1.0\"?><feed/>".utf8), "an XML document"),
            ("a PDF", Array("%PDF-1.7\n".utf8) + [0x00, 0xE2, 0xE3], "a PDF document"),
            ("a ZIP", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], "a ZIP archive"),
            // Pictures written as text are never text (a download asks before it knows the format).
            ("an SVG", Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>".utf8), nil),
            ("an SVG after a declaration", Array("<?xml version=\"1.0\"?>\n<!-- drawn -->\n<svg viewBox=\"0 0 4 4\"></svg>".utf8), nil),
            ("an XPM", Array("/* XPM */\nstatic char *x[] = {\"1 1 1 1\", \"a c #ff0000\", \"a\"};".utf8), nil),
            ("an XBM", Array("#define x_width 1\n#define x_height 1\nstatic char x_bits[] = { 0x01 };".utf8), nil),
            ("an XBM after a comment", Array("/* drawn by hand */\n#define x_width 1\n".utf8), nil),
            ("a plain PNM", Array("P3\n1 1\n255\n255 0 0\n".utf8), nil),
            ("words starting with P3", Array("P3 is our plan".utf8), nil),
            ("words starting with a P", Array("Plans for Friday".utf8), "text"),
            // What may be a picture is left to the decoder.
            ("a NUL", Array("GIF8".utf8) + [0x00], nil),
            ("a control character", [0x41, 0x02, 0x41], nil),
            ("broken UTF-8", [0x41, 0xC3, 0x28, 0x41], nil),
            ("nothing", [], nil),
        ]
        for (what, bytes, kind) in cases {
            #expect(NotAPicture.kind(of: Data(bytes)) == kind, "\(what)")
        }
    }

    /// Only the first 512 bytes are read: a character they cut in two is still text.
    @Test func aCharacterCutByTheWindowIsStillText() {
        let text = String(repeating: "a", count: 511) + "é and more"
        #expect(Data(text.utf8).prefix(512).last == 0xC3)
        #expect(NotAPicture.kind(of: Data(text.utf8)) == "text")
    }
}
