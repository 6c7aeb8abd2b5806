import Testing
import MemeryCore
@testable import MemeryPixels
@testable import MemeryRender

/// What a migration must leave (ParamMigration.checkComplete), on parameter sets as a
/// creation stores them: every id the older version declared.
@Suite struct ParamMigrationRuleTests {
    func descriptor(_ ids: [String]) -> FilterDescriptor {
        FilterDescriptor(id: "org.example.f", name: "F", description: nil, paramVersion: 2, deterministic: true, origin: .user, library: "f.so",
                         params: ids.map { .init(id: $0, name: $0, description: nil, kind: .number, unit: .none, min: 0, max: 1, defaultValue: .number(0), choices: []) })
    }

    func reason(_ migrated: [String], declared: [String], stored: [String]) -> String? {
        do {
            try ParamMigration.checkComplete(Set(migrated), descriptor: descriptor(declared), stored: Set(stored), from: 1)
            return nil
        } catch let FilterError.migrationFailed(_, from, reason) {
            #expect(from == 1)
            return reason
        } catch {
            return "\(error)"
        }
    }

    @Test func whatAWellWrittenStepLeavesPasses() {
        #expect(reason(["amount"], declared: ["amount"], stored: ["strength"]) == nil, "a rename")
        #expect(reason(["amount", "mode"], declared: ["amount", "mode"], stored: ["amount", "legacy", "mode"]) == nil, "an obsolete parameter removed, nothing added")
        #expect(reason(["amount", "edge"], declared: ["amount", "edge"], stored: ["amount", "legacy"]) == nil, "removed, and the new one set to its default")
        #expect(reason(["amount"], declared: ["amount", "edge"], stored: ["amount"]) == nil, "a parameter added, nothing removed: it takes its default")
    }

    @Test func aForgottenRenameNamesTheLeftover() throws {
        let why = try #require(reason(["strength"], declared: ["amount"], stored: ["strength"]))
        #expect(why.hasPrefix("after its migrate steps the parameters still hold strength, which version 2 does not declare"), "\(why)")
    }

    @Test func aDroppedValueOfAParameterStillDeclaredIsRefused() throws {
        let why = try #require(reason(["amount"], declared: ["amount", "mode"], stored: ["amount", "mode"]))
        #expect(why.hasPrefix("after its migrate steps the parameters hold no value for mode, which was stored and version 2 still declares"), "\(why)")
    }

    @Test func aRemovedParameterWithTheNewOneUnsetIsRefused() throws {
        let why = try #require(reason([], declared: ["amount"], stored: ["strength"]))
        #expect(why.hasPrefix("after its migrate steps strength is removed and none of amount is set, which would take its default: the stored value is lost"), "\(why)")
        #expect(why.hasSuffix("or take the filter off with `memery filter remove`)"), "\(why)")
    }
}
