import Logging

/// Where the hub keeps accounts, login counts and pictures: PostgreSQL in service, memory in
/// the router tests. The sync's event log and the library are PostgreSQL's alone.
struct HubRecords: Sendable {
    var accounts: any AccountRecords
    var logins: any LoginRecords
    var pictures: any PictureRecords

    /// The account rules over these records, as `settings` ask.
    func accounts(_ settings: HubSettings, logger: Logger, sessions: SessionCache? = nil) -> Accounts {
        Accounts(records: accounts, passwords: Passwords(cost: settings.bcryptCost), limits: LoginLimits(records: logins),
                 addresses: ClientAddress(trusted: settings.trustedProxies), logger: logger, cookie: settings.cookie, sessions: sessions)
    }
}
