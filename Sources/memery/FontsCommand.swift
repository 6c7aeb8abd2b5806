import ArgumentParser
import Foundation
import Memery

struct FontsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fonts", abstract: "List the font families text can be set in, the meme faces marked.",
        discussion: "Name one with --font or font=FAMILY. Fallback fonts fill in other scripts and emoji whatever the family.")

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let fonts = try storeOptions.open().fonts()
        if json {
            try printJSON(fonts)
        } else {
            let width = fonts.map(\.name.count).max() ?? 0
            for font in fonts {
                print(font.role.map { font.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  * " + $0 } ?? font.name)
            }
        }
    }
}
