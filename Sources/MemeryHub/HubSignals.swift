/// What the pages (`HubPages`) may know of pushes: a user rung when a push through any hub
/// moved their position (`PositionBell`, rung by `PositionListener`), and the position it
/// named. A working copy follows its person with this instead of a watch of its own.
public struct HubSignals: Sendable {
    let bell: PositionBell

    /// The user's rings are counted from now until `unwatch`.
    public func watch(_ user: Int64) { bell.watch(user) }
    public func unwatch(_ user: Int64) { bell.unwatch(user) }
    public func rings(_ user: Int64) -> UInt64 { bell.rings(user) }
    /// The newest position a ring named, if one did.
    public func position(_ user: Int64) -> Int64? { bell.position(user) }
    /// Returns once `user` was rung more than `seen` times, after `timeout`, or when cancelled.
    public func wait(_ user: Int64, since seen: UInt64, atMost timeout: Duration) async {
        await bell.wait(user, since: seen, atMost: timeout)
    }
    /// False while the hub's listening connection is lost: rings may go missing.
    public var isListening: Bool { bell.isListening }
}
