import ArgumentParser
import Foundation
import Memery
import MemeryHTTP
import MemeryServer

struct ServeCommand: AsyncParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Open the visual editor in your browser: a local web server on this store.",
        discussion: """
        Serves the editor and its HTTP API (schemas/openapi.yaml) on 127.0.0.1 until Ctrl-C. It prints an address \
        with a secret token in it: open that address (the token becomes a cookie); scripts send \
        "Authorization: Bearer TOKEN". Other processes may use the store at the same time: their edits show in the \
        open page within a second.
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(parsing: .unconditional, help: "The port to listen on (0 picks a free one).")
    var port: Int = 0

    @Option(help: ArgumentHelp("The address to listen on; anything but loopback needs --allow-remote.", valueName: "address"))
    var host = "127.0.0.1"

    @Flag(help: "Allow listening on an address other machines can reach (anyone with the token can then edit this store).")
    var allowRemote = false

    @Option(parsing: .unconditional, help: "The largest upload, in megabytes.")
    var maxUploadMb = 64

    @Option(parsing: .unconditional, help: "Memory for decoded pictures kept between previews, in megabytes (a 12-megapixel photo takes 48; 0 keeps none).")
    var cacheMb = 512

    @Flag(help: "Open the address in the default browser.")
    var open = false

    @Flag(help: ArgumentHelp("Let picture links lead into this machine's own network when listening beyond loopback.",
                             discussion: "On loopback they may (it is your own network); with --allow-remote, links to loopback, private and link-local addresses (169.254.169.254 among them) are refused unless this is given."))
    var allowPrivateUrls = false

    func checkArguments() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, got \(port)") }
        guard (1...4_096).contains(maxUploadMb) else { throw ValidationError("--max-upload-mb must be from 1 to 4096, got \(maxUploadMb)") }
        guard (0...1 << 20).contains(cacheMb) else { throw ValidationError("--cache-mb must be from 0 to 1048576, got \(cacheMb)") }
        if !ServerSettings.isLoopback(host) && !allowRemote {
            throw ValidationError("--host \(host) lets other machines reach this store: add --allow-remote if that is what you want")
        }
    }

    func run() async throws {
        let workspace = try storeOptions.open()
        workspace.keepDecodedImages(upTo: cacheMb << 20)
        workspace.keepHelpersWarm(2)
        var chosen = ServerSettings(host: host, port: port, maxBodyBytes: maxUploadMb << 20,
                                      allowsPrivateLinks: ServerSettings.isLoopback(host) || allowPrivateUrls)
        // MEMERY_DOWNLOAD_SECONDS shortens the 20 s limit on a link's download, for tests of it.
        if let seconds = ProcessInfo.processInfo.environment["MEMERY_DOWNLOAD_SECONDS"].flatMap(Int.init) { chosen.downloadSeconds = seconds }
        if !ServerSettings.isLoopback(host) {
            FileHandle.standardError.write(Data("warning: listening on \(host): anyone who can reach it and has the token can read and change this store; the connection is not encrypted\n".utf8))
        }
        let (openBrowser, settings) = (open, chosen)
        do {
            try await EditorServer.run(workspace: workspace, settings: settings) { address in
                FileHandle.standardOutput.write(Data("Memery editor: \(address)\nCtrl-C stops it.\n".utf8))
                if openBrowser { Self.openInBrowser(address) }
            }
        } catch let missing as EditorFilesMissing {
            throw InputError(missing.description)
        } catch let refused as CannotListen {
            throw InputError(refused.description)
        } catch where MemeryError(classifying: error) == nil {
            throw InputError("the server could not run: \(error)")
        }
    }

    static func openInBrowser(_ address: String) {
        let opener = Process()
        opener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        opener.arguments = ["xdg-open", address]
        opener.standardOutput = FileHandle.nullDevice
        opener.standardError = FileHandle.nullDevice
        do { try opener.run() } catch {
            FileHandle.standardError.write(Data("note: no browser could be opened (xdg-open: \(error)); open the address above yourself\n".utf8))
        }
    }
}
