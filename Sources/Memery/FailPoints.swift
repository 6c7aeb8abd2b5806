import MemeryStore

/// The crash test's fail points that front ends pass (`MEMERY_FAILPOINT=NAME:N`).
public enum FailPoints {
    /// After an edit committed, before a front end acknowledges it.
    public static func afterCommitBeforeAcknowledgement() {
        FailPoint.pass(FailPoint.afterCommitBeforeAcknowledgement)
    }

    /// After a sync's push page was acknowledged and where the sync got was saved.
    public static func afterPushPage() {
        FailPoint.pass("after-push-page")
    }
}
