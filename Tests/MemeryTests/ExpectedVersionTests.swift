import Foundation
@testable import Memery
import MemeryCore
import MemeryTestSupport
import Testing

/// An edit made on condition of a version (`expectedVersion` in the HTTP API) is stored only
/// if the creation is still there when the edit is appended.
@Suite struct ExpectedVersionTests {
    func captions(_ workspace: Workspace) throws -> [String] {
        try workspace.creation(named: "cat").layers.compactMap { $0.text?.text }
    }

    @Test func anEditOnAStaleVersionStoresNothing() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "cat", imageAt: TestData.example("chelsea.png").path)
        let version = try workspace.head(of: "cat").streamVersion
        #expect(try workspace.perform(.captions(top: "first", bottom: nil), on: "cat", expectingVersion: version).version == version + 1)
        let error = #expect(throws: StaleVersion.self) {
            try workspace.perform(.captions(top: "second", bottom: nil), on: "cat", expectingVersion: version)
        }
        #expect(error?.current == version + 1)
        #expect(MemeryError(classifying: error!)?.kind == .conflict)
        #expect(try workspace.head(of: "cat").streamVersion == version + 1 && captions(workspace) == ["first"])
    }

    /// Another writer between the check and the append (another tab, another process): the
    /// store refuses the append, and the edit is not decided again on the newer state.
    @Test func anotherWriterBeforeTheAppendMakesItStale() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "cat", imageAt: TestData.example("chelsea.png").path)
        let tab = EditRunner(workspace: workspace)  // holds the creation open, at the version it last saw
        let seen = try #require(try tab.perform(.captions(top: "from the tab", bottom: nil), on: "cat").version)
        try EditRunner(workspace: workspace).perform(.captions(top: "from elsewhere", bottom: nil), on: "cat")
        #expect(throws: StaleVersion.self) {
            try tab.perform(.captions(top: nil, bottom: "on a version gone"), on: "cat", expectingVersion: seen)
        }
        #expect(try workspace.head(of: "cat").streamVersion == seen + 1)
        #expect(try captions(workspace) == ["from elsewhere"])
        // Without a condition the same runner decides again on the newer state, as before.
        try tab.perform(.captions(top: nil, bottom: "after it"), on: "cat")
        #expect(try captions(workspace) == ["from elsewhere", "after it"])
    }

    /// A move decided on the history index by a session that has read nothing yet (as every
    /// request of the editor's API opens one) is checked against the version the index gave:
    /// a stale condition stores nothing.
    @Test func aMoveOnTheIndexOnAStaleVersionStoresNothing() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "cat", canvasWidth: 40, height: 30, background: .white)
        try workspace.perform(.captions(top: "one", bottom: nil), on: "cat")
        let seen = try workspace.head(of: "cat").streamVersion
        try Workspace(directory: dir.url).perform(.captions(top: "two", bottom: nil), on: "cat")
        let session = try Workspace(directory: dir.url).session("cat")
        session.expectedVersion = seen
        let error = #expect(throws: StaleVersion.self) { try session.undo() }
        #expect(error?.expected == seen && error?.current == seen + 1)
        #expect(try workspace.head(of: "cat").streamVersion == seen + 1 && captions(workspace) == ["two"], "the undo was not stored")
    }

    /// A session holds one creation: when its name comes to mean another (renamed, then a new
    /// one made under the old name) before the session has read it, the edit is refused
    /// rather than decided on one creation and appended to the other.
    @Test func aSessionWhoseNameNowMeansAnotherCreationRefusesToEdit() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "cat", canvasWidth: 40, height: 30, background: .white)
        let session = try workspace.session("cat")
        let other = try Workspace(directory: dir.url)
        try other.rename("cat", to: "dog")
        try other.create(name: "cat", canvasWidth: 20, height: 10, background: .black)
        #expect(throws: DomainError.noSuchCreation("cat")) { try session.edit(.setCaptions(top: "lost?", bottom: nil)) }
        #expect(try other.creation(named: "dog").layers.isEmpty && other.creation(named: "cat").layers.isEmpty, "neither was edited")
    }
}
