import ArgumentParser
import Foundation
import Memery
import MemeryHubClient

/// `--password-stdin`, for scripts.
struct PasswordOptions: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input instead of asking for it.")
    var passwordStdin = false
}

struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "This store's hub account: who, which hub, which devices (and sign-up, password, devices, deletion).",
        subcommands: [AccountShowCommand.self, SignUpCommand.self, PasswordCommand.self, RevokeCommand.self, DeleteAccountCommand.self],
        defaultSubcommand: AccountShowCommand.self)
}

/// The store's login, or a message that says how to log in.
func requireLogin(_ workspace: Workspace) throws -> HubLogin {
    guard let login = try HubLogin.load(workspace) else {
        throw InputError("this store is not logged in to a hub: run `memery login HUB_URL --user NAME` (or `memery account signup HUB_URL --user NAME` first)")
    }
    return login
}

struct AccountShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Who this store is logged in as, on which hub, and the account's devices.")
    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let login = try requireLogin(try storeOptions.open())
        let answer: AccountAnswer
        do {
            answer = try await HubAccount.account(login)
        } catch let error as HubClientError where error.status == 401 {
            // The hub forgot this device: who and where it was, then what to do (exit 4).
            if !json { print("\(login.user)\(login.role == "manager" ? " (manager)" : "") on \(login.hub): signed out") }
            throw error
        } catch let error as HubClientError where error.status == nil {
            // The hub does not answer: what this store knows is still worth saying.
            if json {
                try printJSON(AccountStatusAnswer(user: login.user, role: login.role, hub: login.hub, reachable: false))
            } else {
                print("\(login.user)\(login.role == "manager" ? " (manager)" : "") on \(login.hub)")
            }
            FileHandle.standardError.write(Data("note: the devices are not listed: \(error.description)\n".utf8))
            return
        }
        if json {
            try printJSON(AccountStatusAnswer(user: answer.user, role: answer.role, hub: login.hub, position: answer.position,
                                              devices: answer.devices.map(AccountStatusAnswer.Device.init)))
            return
        }
        print("\(answer.user)\(answer.role == "manager" ? " (manager)" : "") on \(login.hub)")
        for device in answer.devices {
            let seen = Date(timeIntervalSince1970: Double(device.lastSeen) / 1000)
            print("  \(device.current ? "*" : " ") \(device.id.uuidString.lowercased().prefix(8))  \(PrintableText.unquoted(device.device))  last seen \(ISO8601DateFormatter().string(from: seen))")
        }
    }
}

struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "signup", abstract: "Make an account on a hub, and log this store in to it.")
    @Argument(help: ArgumentHelp("The hub's address, as `memery hub` printed it.", valueName: "hub-url")) var hub: String
    @Option(help: "The user name: 2 to 40 letters, digits, '.', '-' or '_'.") var user: String
    @OptionGroup var passwordOptions: PasswordOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let workspace = try storeOptions.open()
        try HubAccount.refuseSwitching(workspace, hub: hub, user: user)
        let password = try PasswordInput.read(prompt: "New password for \(user): ", fromStandardInput: passwordOptions.passwordStdin)
        let (hub, user) = (hub, user)
        try await HubAccount.signUp(hub: hub, user: user, password: password)
        try await HubAccount.logIn(workspace, hub: hub, user: user, password: password, device: Device.name)
        print("signed up as \(user) on \(hub); this store is logged in (`memery sync` syncs it)")
    }
}

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log this store in to a hub account (the device's token is kept in the store, mode 0600).")
    @Argument(help: ArgumentHelp("The hub's address, as `memery hub` printed it.", valueName: "hub-url")) var hub: String
    @Option(help: "The user name.") var user: String
    @Option(help: "What to call this device in `memery account` (default: the host name).") var device: String?
    @OptionGroup var passwordOptions: PasswordOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let workspace = try storeOptions.open()
        let password = try PasswordInput.read(prompt: "Password for \(user): ", fromStandardInput: passwordOptions.passwordStdin)
        let (hub, user, device) = (hub, user, device ?? Device.name)
        let login: HubLogin? = try await HubAccount.logIn(workspace, hub: hub, user: user, password: password, device: device)
        print("logged in as \(login?.user ?? user) on \(login?.hub ?? hub)")
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Log this store out of its hub (ends the device's session there).")
    @Flag(help: "End every device's session of the account, not only this one's.") var all = false
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let workspace = try storeOptions.open()
        let all = all
        guard try HubLogin.load(workspace) != nil else { print("this store was not logged in"); return }
        let note = try await HubAccount.logOut(workspace, all: all)
        if let note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        print(all ? "logged out on every device" : "logged out")
    }
}

struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password", abstract: "Change the account's password (other devices are logged out).",
        discussion: "With --password-stdin, the first line of standard input is the current password and the second the new one.")
    @OptionGroup var passwordOptions: PasswordOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let login = try requireLogin(try storeOptions.open())
        let old = try PasswordInput.read(prompt: "Current password: ", fromStandardInput: passwordOptions.passwordStdin)
        let new = try PasswordInput.read(prompt: "New password: ", fromStandardInput: passwordOptions.passwordStdin)
        try await HubAccount.changePassword(login, old: old, new: new)
        print("password changed; other devices are logged out")
    }
}

struct RevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "End another device's session (its id from `memery account`).")
    @Argument(help: "The session's id, or the first 8 characters of it as `memery account` shows.") var session: String
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let login = try requireLogin(try storeOptions.open())
        let prefix = session.lowercased()
        let devices = try await HubAccount.account(login).devices.filter { $0.id.uuidString.lowercased().hasPrefix(prefix) }
        guard devices.count == 1, let device = devices.first else {
            throw InputError(devices.isEmpty ? "no session \(prefix) on this account: `memery account` lists them" : "\(prefix) names several sessions: give more of the id")
        }
        try await HubAccount.revoke(login, session: device.id)
        print("revoked")
    }
}

struct DeleteAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete the account and everything the hub keeps of it (this store keeps its creations).")
    @OptionGroup var passwordOptions: PasswordOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let workspace = try storeOptions.open()
        let login = try requireLogin(workspace)
        let password = try PasswordInput.read(prompt: "Password for \(login.user), to delete the account for good: ", fromStandardInput: passwordOptions.passwordStdin)
        try await HubAccount.delete(workspace, login, password: password)
        print("deleted the account \(login.user) and its data on \(login.hub); this store is logged out and keeps its creations")
    }
}

enum Device {
    static var name: String { ProcessInfo.processInfo.hostName }
}

/// What `account --json` prints: who this store is logged in as, where, and the account's
/// devices; `reachable: false` alone when the hub did not answer.
struct AccountStatusAnswer: Encodable {
    struct Device: Encodable {
        var id: String
        var device: String
        var created: Int64
        var lastSeen: Int64
        var current: Bool

        init(_ session: DeviceSession) {
            id = session.id.uuidString.lowercased(); device = session.device; created = session.created
            lastSeen = session.lastSeen; current = session.current
        }
    }
    var user: String
    var role: String
    var hub: String
    var position: Int64?
    var devices: [Device]?
    var reachable: Bool?
}
