import Testing

/// The hub suites skip when no PostgreSQL can be started; this makes `make test` fail then,
/// so a missing database never reads as a pass.
@Suite struct PostgreSQLIsThereForTheHubTests {
    @Test func aThrowawayPostgreSQLClusterStarts() throws {
        switch PostgresCluster.startShared {
        case .success: break
        case .failure(let error): Issue.record("the hub tests need PostgreSQL and none could be started: \(error)")
        }
    }
}
