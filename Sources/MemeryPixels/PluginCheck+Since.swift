import Foundation
import MemeryCore

extension PluginCheck {
    /// `memery plugin check NEW --since OLD`: for each filter of the older build whose
    /// parameter version the newer one raised, parameters as the older one stored them (its
    /// defaults, and random values in its ranges) are brought up through the newer build's
    /// migrate steps in the helper, as export would, and checked against its declaration.
    /// A filter the newer build dropped fails too: creations that use it could not be exported.
    public func migrations(_ path: String, since old: String) -> [Result] {
        let runner = IsolatedRunner(helper: helper, timeout: timeout)
        let newFilters = (try? runner.describe(path, origin: .user))?.0 ?? []
        let (oldFilters, oldWarnings) = (try? runner.describe(old, origin: .user)) ?? ([], ["the helper could not be started"])
        guard !oldFilters.isEmpty else {
            return [Result(passed: false, check: "reads \(old)", reason: oldWarnings.first ?? "it declares no filter")]
        }
        var results = [Result]()
        for (before, _) in oldFilters {
            let check = "\(before.id) since version \(before.paramVersion)"
            guard let (after, _) = newFilters.first(where: { $0.0.id == before.id }) else {
                results.append(Result(passed: false, check: check, reason: "the newer plugin no longer has this filter: creations that use it could not be exported"))
                continue
            }
            guard after.paramVersion >= before.paramVersion else {
                results.append(Result(passed: false, check: check, reason: """
                    the newer plugin's parameters are at version \(after.paramVersion), older than \(before.paramVersion): \
                    creations saved with the older plugin would be refused
                    """))
                continue
            }
            guard after.paramVersion > before.paramVersion else {
                results.append(Result(passed: true, check: check, reason: "same parameter version, nothing to migrate"))
                continue
            }
            var stored = [before.params.reduce(into: [String: FilterValue]()) { $0[$1.id] = $1.defaultValue }]
            var rng = SplitMix(seed: 7)
            for _ in 0..<3 {
                stored.append(before.params.reduce(into: [String: FilterValue]()) { $0[$1.id] = Self.randomValue($1, width: 7, height: 3, rng: &rng) })
            }
            var failure: String?
            var example = ""
            for params in stored where failure == nil {
                do {
                    let migrated = try runner.migrate(descriptor: after, params: params, from: before.paramVersion)
                    _ = try FilterHost.shared.checked(migrated, for: after)
                    if example.isEmpty { example = "\(Self.listed(params)) became \(Self.listed(migrated))" }
                } catch let error as FilterError {
                    failure = "with \(Self.listed(params)): \(Self.short(error))"
                } catch {
                    failure = "with \(Self.listed(params)): \(error)"
                }
            }
            results.append(Result(passed: failure == nil, check: check + " to \(after.paramVersion)", reason: failure ?? example))
        }
        return results
    }

    static func listed(_ params: [String: FilterValue]) -> String {
        params.isEmpty ? "no parameters" : params.keys.sorted().map { "\($0)=\(params[$0]!)" }.joined(separator: " ")
    }
}
