import Logging
import PostgresNIO
import ServiceLifecycle

/// Takes away pictures a user uploaded and no event or library entry of theirs uses, once
/// `grace` has passed since the upload (issue 30 §5: an upload alone cannot fill a hub).
/// The grace period covers a machine that uploads a push's pictures and is cut off before
/// the push: should it come back later than that, the hub answers that the pictures are
/// missing and the machine uploads them again. Every hub on a database sweeps; the work is
/// per user under their row lock (schema step 8), so two sweeps never take the same grant.
struct PictureSweeper: Service {
    let client: PostgresClient
    let grace: Duration
    let logger: Logger

    /// How often: a quarter of the grace period, from a quarter of a second to ten minutes.
    var interval: Duration { min(max(grace / 4, .milliseconds(250)), .seconds(600)) }

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return  // the hub is stopping
            }
            do {
                try await sweep()
            } catch {
                // The database away or the schema not migrated yet: the next round tries again.
                logger.debug("the picture sweep did not run", metadata: ["error": "\(String(reflecting: error))"])
            }
        }
    }

    /// One round over the users with pictures past their grace period that are not known to be in use.
    func sweep() async throws {
        let graceText = "\(grace.components.seconds * 1000 + grace.components.attoseconds / 1_000_000_000_000_000) milliseconds"
        var users = [Int64]()
        for try await user in try await client.query("""
            SELECT DISTINCT user_id FROM blob_grants WHERE NOT in_use AND granted_at < now() - \(graceText)::interval LIMIT 10000
            """, logger: logger).decode(Int64.self) {
            users.append(user)
        }
        for user in users {
            for try await (removed, freed) in try await client.query("""
                SELECT o_removed, o_freed FROM hub_sweep_pictures(\(user), \(graceText)::interval)
                """, logger: logger).decode((Int32, Int64).self) {
                logger.info("took away pictures uploaded and never used", metadata: [
                    "user": "\(user)", "pictures": "\(removed)", "bytes": "\(freed)"])
            }
        }
    }
}
