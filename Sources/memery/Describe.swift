import ArgumentParser
import Memery
import Foundation

/// The lines the CLI prints for layers (their JSON is the facade's `LayerAnswer`).
enum Describe {
    /// One line for a layer: position, id, kind and what it shows. What came in events
    /// (words, names, fonts, links) is escaped for the terminal (`PrintableText`).
    static func line(_ layer: Layer, position: Int) -> String {
        func e(_ text: String) -> String { PrintableText.escaped(text) }
        let t = layer.transform
        var placement = "at \(number(t.x)),\(number(t.y))"
        if t.scale != 1 { placement += " scale \(number(t.scale))" }
        if t.rotation != 0 { placement += " rotated \(number(t.rotation))°" }
        if t.flipH { placement += " flipped h" }
        if t.flipV { placement += " flipped v" }
        if layer.opacity != 1 { placement += " opacity \(number(layer.opacity))" }
        let what: String
        switch layer.content {
        case .text(let text):
            let s = text.style
            what = "text \(text.role) \(PrintableText.quoted(text.text)) box \(layer.box) \(e(s.font)) up to \(number(s.maxSize))px \(s.fill)/\(s.outline) \(s.align)\(s.uppercase ? "" : " no-caps")"
        case .image(let content):
            what = "image \(e(content.image.sourceName ?? String(content.image.blob.prefix(12)))) \(content.width)x\(content.height)"
                + (content.image.origin.map { " from \(origin($0))" } ?? "")
        case .shape(let shape):
            what = "\(shape.kind) \(number(shape.width))x\(number(shape.height)) fill \(shape.fill?.hex ?? "none") alpha \(number(shape.alpha)) stroke \(shape.stroke?.hex ?? "none")"
        case .drawing(let drawing):
            what = "drawing, \(drawing.strokes.count) stroke(s)"
        }
        return "  \(position)  \(e(layer.label))  \(what)  \(placement)"
    }

    /// Where a picture came from: its link, and its credit when it has one.
    static func origin(_ origin: PictureOrigin) -> String {
        PrintableText.escaped(origin.url + (origin.licence != nil || origin.author != nil ? " (\(origin.credit))" : ""))
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.2f", value)
    }
}

/// Prints a typed answer as JSON, pretty and with sorted keys (`AnswerJSON`).
func printJSON(_ answer: some Encodable) throws {
    print(String(decoding: try AnswerJSON.data(answer, pretty: true), as: UTF8.self))
}

/// Writes bytes to standard output as they come (for output too big to gather first). A
/// reader that stops early (`| head`) ends the command quietly with success, as `print`'s
/// dropped writes did, instead of reading the rest for nobody.
func writeToStandardOutput(_ bytes: UnsafeRawBufferPointer) throws {
    do {
        try FileHandle.standardOutput.write(contentsOf: Data(bytes))
    } catch let error as NSError where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EPIPE) {
        throw ExitCode.success
    }
}
