import ArgumentParser
import Memery

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Start a creation from a picture; prints its name and id.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "A name for the creation, unique in the gallery (case is ignored).")
    var name: String

    @Option(help: ArgumentHelp("The base picture: PNG, JPEG, GIF, BMP, TIFF, WebP, AVIF, ...", valueName: "file"))
    var image: String

    func run() throws {
        let creation = try storeOptions.open().create(name: name, imageAt: image)
        print("\(creation.name)\t\(creation.id.uuidString.lowercased())")
    }
}
