import Foundation
import MemeryCore
import MemeryPluginABI

/// `memery plugin check FILE`: loads a plugin in isolation, checks its declarations, and
/// runs each filter on odd sizes with padded strides and random in-range parameters, twice
/// where it claims determinism. Every run happens in a helper process of its own.
public struct PluginCheck {
    public struct Result: Sendable, Equatable {
        public var passed: Bool
        public var check: String
        public var reason: String
    }

    /// The sizes every filter must handle.
    public static let sizes = [(1, 1), (7, 3), (1001, 667)]
    /// Bytes of padding after each row, so a filter that ignores the stride is caught.
    public static let padding = 12

    struct RunRequest: Codable {
        var library: String
        var filter: String
        var width: Int
        var height: Int
        var seed: UInt64
        /// Also cancel a run part-way (done on the largest size).
        var cancel: Bool = false
    }

    struct RunReply: Codable {
        var ok: Bool
        var reason: String
        /// The run cancelled part-way (on the largest size): whether it stopped as asked, and how.
        var cancelOK: Bool? = nil
        var cancelReason: String? = nil
        /// The run without the host's thread pool (on the largest size): its fallback.
        var poollessOK: Bool? = nil
        var poollessReason: String? = nil
    }

    public let helper: String
    public let timeout: TimeInterval

    public init(helper: String = FilterHost.shared.helperPath, timeout: TimeInterval = FilterHost.shared.timeout) {
        self.helper = helper
        self.timeout = timeout
    }

    public func run(_ path: String) -> [Result] {
        var results = [Result]()
        let runner = IsolatedRunner(helper: helper, timeout: timeout)
        let (filters, warnings, migrates) = (try? runner.describeWithExtensions(path, origin: .user)) ?? ([], ["the helper could not be started"], false)
        let loaded = !filters.isEmpty || warnings.allSatisfy { $0.contains("skipped in ") }
        results.append(Result(passed: loaded, check: "loads in isolation", reason: loaded ? "" : warnings.first ?? "no filters"))
        for warning in warnings where loaded { results.append(Result(passed: false, check: "declarations", reason: warning)) }
        guard loaded else { return results }
        results.append(Result(passed: !filters.isEmpty, check: "declares filters",
                              reason: filters.isEmpty ? "it declares no usable filter" : "\(filters.count) filter(s)"))
        for (descriptor, _) in filters {
            results.append(Result(passed: true, check: "\(descriptor.id) declaration",
                                  reason: "\(descriptor.params.count) parameter(s), version \(descriptor.paramVersion)"))
            if descriptor.paramVersion > 1 && !migrates {
                // Every creation saved with an older version would fail to export.
                results.append(Result(passed: false, check: "\(descriptor.id) migration", reason: """
                    its parameters are at version \(descriptor.paramVersion), but the plugin offers no \(MEMERY_EXT_MIGRATE) extension: \
                    creations saved with \(descriptor.paramVersion == 2 ? "version 1" : "versions 1 to \(descriptor.paramVersion - 1)") \
                    could not be exported (docs/plugins.md, Changing parameters later)
                    """))
            }
            for (index, (width, height)) in Self.sizes.enumerated() {
                let check = "\(descriptor.id) on \(width)x\(height)"
                let request = RunRequest(library: path, filter: descriptor.id, width: width, height: height, seed: UInt64(index + 1),
                                         cancel: index == Self.sizes.count - 1)
                do {
                    let output = try runner.spawn(["check-run"], input: try JSONEncoder().encode(request), subject: descriptor.id)
                    guard let reply = try? JSONDecoder().decode(RunReply.self, from: output) else {
                        results.append(Result(passed: false, check: check, reason: "its reply was not understood"))
                        continue
                    }
                    results.append(Result(passed: reply.ok, check: check, reason: reply.reason))
                    if let cancelOK = reply.cancelOK {
                        results.append(Result(passed: cancelOK, check: "\(descriptor.id) cancelled part-way on \(width)x\(height)", reason: reply.cancelReason ?? ""))
                    }
                    if let poollessOK = reply.poollessOK {
                        results.append(Result(passed: poollessOK, check: "\(descriptor.id) without the host's thread pool on \(width)x\(height)",
                                              reason: reply.poollessReason ?? ""))
                    }
                } catch let error as FilterError {
                    results.append(Result(passed: false, check: check, reason: Self.short(error)))
                } catch {
                    results.append(Result(passed: false, check: check, reason: "\(error)"))
                }
            }
        }
        return results
    }

    static func short(_ error: FilterError) -> String {
        switch error {
        case .crashed(_, let signal): return "crashed (signal \(signal))"
        case .timedOut(_, let seconds): return "ran past the \(Int(seconds)) s limit"
        case .garbled(_, let detail): return detail
        case .overran(_, let detail): return "it " + detail
        case .migrationFailed(_, _, let reason): return reason
        default: return error.description
        }
    }

    /// The worker's side: one filter, one size, random parameters from the seed.
    static func workerRun(_ request: RunRequest) throws -> RunReply {
        let library = try PluginLibrary(path: request.library, origin: .user)
        guard let (descriptor, implementation) = library.filters.first(where: { $0.descriptor.id == request.filter }) else {
            return RunReply(ok: false, reason: "the filter is gone")
        }
        var rng = SplitMix(seed: request.seed)
        var values = [String: FilterValue]()
        for param in descriptor.params { values[param.id] = randomValue(param, width: request.width, height: request.height, rng: &rng) }
        let straight = implementation.pointee.pixel_formats & FilterHost.formatBit(MEMERY_PIXEL_RGBA8) != 0
        // Guarded as in the helper that runs filters for real: the check and the host agree.
        GuardedPixels.installFaultHandler()
        let input = try GuardedPixels(width: request.width, height: request.height, padding: padding, label: "its input", filter: request.filter, canary: 0x5A)
        for y in 0..<request.height {
            for x in 0..<request.width * 4 { input.pixels[y * input.stride + x] = UInt8(truncatingIfNeeded: rng.next()) }
            if !straight {  // premultiplied: colour never above alpha
                for x in 0..<request.width {
                    let i = y * input.stride + x * 4
                    for c in 0..<3 { input.pixels[i + c] = min(input.pixels[i + c], input.pixels[i + 3]) }
                }
            }
        }
        input.seal()
        input.watch(slot: 0)
        func once(lendingThreadPool: Bool = true) throws -> (Int32, String, [UInt8], String?) {
            let output = try GuardedPixels(width: request.width, height: request.height, padding: padding, label: "its output", filter: request.filter)
            output.watch(slot: 1)
            let call = PluginCall(source: request.filter)
            call.lendsThreadPool = lendingThreadPool
            let (status, message) = FilterHost.run(implementation, descriptor: descriptor, values: values, input: UnsafeMutableRawPointer(input.pixels),
                                                   output: UnsafeMutableRawPointer(output.pixels), width: request.width, height: request.height,
                                                   straight: straight, stride: output.stride, call: call)
            var pixels = [UInt8](repeating: 0, count: request.width * request.height * 4)
            pixels.withUnsafeMutableBytes { output.copy(to: $0.baseAddress!) }
            return (status, message, pixels, output.strayWrite())
        }
        let (status, message, first, stray) = try once()
        let settings = values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: " ")
        guard status == Int32(MEMERY_OK.rawValue) else {
            return RunReply(ok: false, reason: "status \(status) with \(settings): \(message.isEmpty ? "no message" : message)")
        }
        if let stray { return RunReply(ok: false, reason: "it \(stray)") }
        if descriptor.deterministic {
            let (_, _, second, _) = try once()
            guard second == first else { return RunReply(ok: false, reason: "it declares determinism but two runs gave different pixels") }
        }
        var reply = RunReply(ok: true, reason: settings.isEmpty ? "" : settings)
        if request.cancel {
            (reply.cancelOK, reply.cancelReason) = try cancelled(implementation, descriptor, values, input, straight, request)
            let (status, _, pixels, stray) = try once(lendingThreadPool: false)
            if status != Int32(MEMERY_OK.rawValue) {
                (reply.poollessOK, reply.poollessReason) = (false, "without the host's thread pool it returned status \(status)")
            } else if let stray {
                (reply.poollessOK, reply.poollessReason) = (false, "without the host's thread pool it \(stray)")
            } else if descriptor.deterministic && pixels != first {
                (reply.poollessOK, reply.poollessReason) = (false, "without the host's thread pool it gave different pixels (its plain loop and its pooled tasks disagree)")
            } else {
                (reply.poollessOK, reply.poollessReason) = (true, descriptor.deterministic ? "the same pixels as with it" : "it ran (not deterministic: pixels not compared)")
            }
        }
        return reply
    }

    /// Runs the filter once more, with progress() answering false from its second call on,
    /// as the host does near its time limit: it must stop and say MEMERY_ERROR_CANCELLED.
    private static func cancelled(_ implementation: UnsafePointer<memery_filter>, _ descriptor: FilterDescriptor, _ values: [String: FilterValue],
                                  _ input: GuardedPixels, _ straight: Bool, _ request: RunRequest) throws -> (Bool, String) {
        let output = try GuardedPixels(width: request.width, height: request.height, padding: padding, label: "its output", filter: request.filter)
        output.watch(slot: 1)
        let call = PluginCall(source: request.filter)
        call.stopAtCall = 2
        let start = ContinuousClock.now
        let (status, _) = FilterHost.run(implementation, descriptor: descriptor, values: values, input: UnsafeMutableRawPointer(input.pixels),
                                         output: UnsafeMutableRawPointer(output.pixels), width: request.width, height: request.height,
                                         straight: straight, stride: output.stride, call: call)
        let took = ContinuousClock.now - start
        let milliseconds = Int(took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000)
        if !call.stopped {
            return (true, "it calls progress() \(call.progressCalls == 0 ? "never" : "only once"), so it cannot be stopped part-way: the host waits for it, up to its time limit")
        }
        guard status == Int32(MEMERY_ERROR_CANCELLED.rawValue) else {
            return (false, "progress() answered false at its second call, but it went on and returned status \(status), not MEMERY_ERROR_CANCELLED (\(MEMERY_ERROR_CANCELLED.rawValue))")
        }
        let extra = call.progressCalls - 2
        return (true, "told to stop at its second progress() call, it returned MEMERY_ERROR_CANCELLED \(extra) call\(extra == 1 ? "" : "s") later, "
                    + "\(milliseconds) ms into the run")
    }

    static func randomValue(_ param: FilterDescriptor.Param, width: Int, height: Int, rng: inout SplitMix) -> FilterValue {
        let unit = Double(rng.next() % 1_000_001) / 1_000_000
        switch param.kind {
        case .number: return .number(param.min + (param.max - param.min) * unit)
        case .integer: return .integer(Int64((param.min + (param.max - param.min) * unit).rounded(.down)))
        case .boolean: return .boolean(rng.next() % 2 == 0)
        case .color: return .color(Color(red: UInt8(rng.next() & 255), green: UInt8(rng.next() & 255), blue: UInt8(rng.next() & 255), alpha: 255))
        case .point: return .point(Point(x: unit * Double(width), y: Double(rng.next() % 1000) / 1000 * Double(height)))
        case .choice: return .choice(param.choices[Int(rng.next() % UInt64(param.choices.count))])
        }
    }

    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
