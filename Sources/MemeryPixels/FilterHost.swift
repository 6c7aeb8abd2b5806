import Foundation
import MemeryCore
import MemeryPluginABI

/// Finds filter plugins, checks parameters against their declarations before a plugin sees
/// them, and runs filters on rasters.
///
/// Discovery: the built-in plugin (libmemery-builtins.so, found by InstallLayout), loaded
/// in-process at the first question about filters; then every .so in the folders of `userPluginDirectories`, read and run only in
/// a helper process (IsolatedRunner).
/// MEMERY_ISOLATE_ALL=1 isolates the built-ins too.
///
/// `@unchecked Sendable`, earned: every table is read and written under `lock` (plugins load
/// lazily, from any thread); filters run outside it on their own buffers, and each
/// in-process filter holds its own lock while it runs, since memery_filter.h promises a
/// plugin one call of its process() at a time per filter.
public final class FilterHost: @unchecked Sendable {
    /// Every filter: the built-ins, then (read when first needed) user plugins and frei0r.
    public var filters: [FilterDescriptor] {
        lock.withLock {
            loadBuiltins()
            loadUserPlugins()
            loadFrei0r()
            return loaded
        }
    }
    private var loaded: [FilterDescriptor] = []
    /// Folders of third-party plugins, read the first time a filter is looked for there.
    private var userDirectories: [String] = []
    private var userPluginsLoaded = false
    private var frei0rLoaded = false
    private let lock = NSRecursiveLock()
    /// Plugins or filters that were skipped, each with the file and the reason.
    public var warnings: [String] { lock.withLock { loadBuiltins(); return skipped } }
    private var skipped: [String] = []
    /// Why the built-in filters are not there, when they are not (e.g. only `memery` was built).
    public var builtinProblem: String? { lock.withLock { loadBuiltins(); return builtinsMissing } }
    private var builtinsMissing: String?
    /// The built-in plugin's folder, loaded at the first question about filters rather than
    /// when the host is made: a command that draws no filter (history, undo, list, a new
    /// creation) does not pay its dlopen and the check of its filters (the dlopen alone about
    /// 0.6 ms in a bare C process, `memery history` taking 14-20 ms in all).
    private let builtinDirectory: String?
    private var builtinsLoaded = false
    private var implementations: [String: UnsafePointer<memery_filter>] = [:]
    /// The entry of the library each in-process filter came from (for its extensions).
    private var entries: [String: UnsafePointer<memery_filter_entry>] = [:]
    /// Each filter's accepted pixel formats (bits), for isolated ones too.
    private var formats: [String: UInt32] = [:]
    private var libraries: [PluginLibrary] = []
    /// One lock per in-process filter, held while it runs (the ABI's promise of one thread at a time).
    private var running: [String: NSLock] = [:]

    private func runningLock(_ id: String) -> NSLock {
        lock.withLock {
            if let existing = running[id] { return existing }
            let made = NSLock()
            running[id] = made
            return made
        }
    }
    /// The `memery` binary that runs isolated plugins in its hidden worker mode.
    public let helperPath: String
    /// How long an isolated filter may run before it is stopped: 10 s, or MEMERY_FILTER_TIMEOUT.
    public let timeout: TimeInterval = ProcessInfo.processInfo.environment["MEMERY_FILTER_TIMEOUT"].flatMap(Double.init) ?? 10

    /// The host with the built-in filters and the user's plugins, loaded once per process.
    public static let shared = FilterHost(builtinDirectory: InstallLayout.builtinDirectory, userDirectories: userPluginDirectories())

    public static let builtinLibraryName = "libmemery-builtins.so"

    public init(builtinDirectory: String?, helperPath: String? = nil, userDirectories: [String] = []) {
        self.helperPath = helperPath ?? HelperProcess.helperBinary
        self.userDirectories = userDirectories
        self.builtinDirectory = builtinDirectory
    }

    /// Loads the built-in plugin once, before any other (the first to provide an id keeps it).
    private func loadBuiltins() {
        lock.lock(); defer { lock.unlock() }
        guard !builtinsLoaded else { return }
        builtinsLoaded = true
        guard let builtinDirectory else { return }
        let path = URL(fileURLWithPath: builtinDirectory).appendingPathComponent(Self.builtinLibraryName).path
        if Self.isolateAll {
            loadIsolated(path, origin: .builtin)
        } else {
            load(path, origin: .builtin)
        }
        builtinsMissing = loaded.contains(where: { $0.origin == .builtin }) ? nil
            : FileManager.default.fileExists(atPath: path)
                ? "the built-in filters at \(path) could not be loaded (\(skipped.last ?? "no filters in it"))"
                : "the built-in filters are not installed: there is no \(Self.builtinLibraryName) in \(builtinDirectory)"
    }

    /// The error for a filter no plugin provides: a built-in one says what is missing.
    public func notInstalled(_ id: String) -> FilterError {
        missing([id], otherwise: .unknownFilter(id, skipped: Frei0rStills.notOffered([id]) + warnings))
    }

    /// The error for filters a creation uses that no plugin provides.
    public func missing(_ ids: [String]) -> FilterError { missing(ids, otherwise: .missing(ids, skipped: Frei0rStills.notOffered(ids) + warnings)) }

    private func missing(_ ids: [String], otherwise: FilterError) -> FilterError {
        if let builtinProblem, let builtin = ids.first(where: { $0.hasPrefix("org.memery.") }) {
            return .builtinsMissing(filter: builtin, problem: builtinProblem)
        }
        return otherwise
    }

    /// Where third-party plugins are looked for: each folder on $MEMERY_PLUGIN_PATH, then
    /// $XDG_DATA_HOME/memery/plugins (else ~/.local/share/memery/plugins), then
    /// $MEMERY_STORE/plugins (the first place a newcomer with a store of their own puts one),
    /// then PREFIX/lib/memery/plugins of an installed `memery` (plugins for every user).
    public static func userPluginDirectories(environment: [String: String] = ProcessInfo.processInfo.environment,
                                             system: String? = InstallLayout.systemPluginDirectory) -> [String] {
        var directories = (environment["MEMERY_PLUGIN_PATH"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            directories.append(data + "/memery/plugins")
        } else if let home = environment["HOME"], !home.isEmpty {
            directories.append(home + "/.local/share/memery/plugins")
        }
        if let store = environment["MEMERY_STORE"], !store.isEmpty { directories.append(store + "/plugins") }
        if let system { directories.append(system) }
        var seen = Set<String>()
        return directories.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
    }

    /// Reads every plugin in a folder through the helper: nothing of theirs runs here.
    func loadIsolated(directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names.sorted() where name.hasSuffix(".so") {
            loadIsolated(URL(fileURLWithPath: directory).appendingPathComponent(name).path, origin: .user)
        }
    }

    func loadIsolated(_ path: String, origin: FilterDescriptor.Origin) {
        do {
            let (described, refusals) = try IsolatedRunner(helper: helperPath, timeout: timeout).describe(path, origin: origin)
            skipped += refusals
            for (descriptor, pixelFormats) in described {
                guard !loaded.contains(where: { $0.id == descriptor.id }) else {
                    skipped.append("skipped \(descriptor.id) from \(path): another plugin already provides it")
                    continue
                }
                var isolated = descriptor
                isolated.isolated = true
                loaded.append(isolated)
                formats[descriptor.id] = pixelFormats
            }
        } catch {
            skipped.append("skipped plugin \(path): \(error)")
        }
    }

    /// Loads one plugin library; a refusal becomes a warning, never an error.
    func load(_ path: String, origin: FilterDescriptor.Origin) {
        guard FileManager.default.fileExists(atPath: path) else {
            skipped.append("no plugin at \(path)")
            return
        }
        do {
            let library = try PluginLibrary(path: path, origin: origin)
            libraries.append(library)
            skipped += library.refusedFilters.map { "skipped in \(path): \($0)" }
            for (descriptor, filter) in library.filters {
                guard !loaded.contains(where: { $0.id == descriptor.id }) else {
                    skipped.append("skipped \(descriptor.id) from \(path): another plugin already provides it")
                    continue
                }
                implementations[descriptor.id] = filter
                entries[descriptor.id] = library.entry
                formats[descriptor.id] = filter.pointee.pixel_formats
                loaded.append(descriptor)
            }
        } catch {
            skipped.append(String(describing: error))
        }
    }

    /// A filter by id; frei0r's and user plugins' catalogs are read only when asked for.
    public func filter(_ id: String) -> FilterDescriptor? {
        lock.lock(); defer { lock.unlock() }
        loadBuiltins()
        if let found = loaded.first(where: { $0.id == id }) { return found }
        if id.hasPrefix("frei0r.") { loadFrei0r() } else { loadUserPlugins() }
        return loaded.first { $0.id == id }
    }

    /// A store's own plugins folder, searched like the others, before the plugins installed for
    /// every user (a store named by --store brings its plugins along); read at once when the
    /// others already were.
    public func addStoreDirectory(_ directory: String) {
        lock.withLock {
            func standard(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
            guard !userDirectories.contains(where: { standard($0) == standard(directory) }) else { return }
            let system = InstallLayout.systemPluginDirectory.map(standard)
            let position = userDirectories.firstIndex { standard($0) == system } ?? userDirectories.endIndex
            userDirectories.insert(directory, at: position)
            if userPluginsLoaded { loadIsolated(directory: directory) }
        }
    }

    private func loadUserPlugins() {
        lock.lock(); defer { lock.unlock() }
        guard !userPluginsLoaded else { return }
        loadBuiltins()
        userPluginsLoaded = true
        for directory in userDirectories { loadIsolated(directory: directory) }
    }

    /// Debian's frei0r-plugins, as frei0r.<name>. They are read and run in the helper process,
    /// as third-party plugins are: only Memery's own built-ins run in this one. All are read
    /// by one helper; if one of them brings it down, each file is read by a helper of its own
    /// and the one that fails is skipped with the reason.
    private func loadFrei0r() {
        lock.lock(); defer { lock.unlock() }
        guard !frei0rLoaded else { return }
        loadBuiltins()
        frei0rLoaded = true
        let runner = IsolatedRunner(helper: helperPath, timeout: timeout)
        var described: [FilterDescriptor]
        do {
            described = try runner.describeFrei0r()
        } catch FilterError.isolationFailed(_, let reason) {
            skipped.append("frei0r filters could not be read: \(reason)")
            return
        } catch {
            described = []
            for file in Frei0rPlugin.files() {
                do {
                    described += try runner.describeFrei0r([file])
                } catch let error as FilterError {
                    skipped.append("skipped frei0r plugin \(file): \(PluginCheck.short(error))")
                } catch {
                    skipped.append("skipped frei0r plugin \(file): \(error)")
                }
            }
        }
        for var descriptor in described where !loaded.contains(where: { $0.id == descriptor.id }) && Frei0rStills.videoOnly[descriptor.id] == nil {
            descriptor.isolated = true
            formats[descriptor.id] = Self.formatBit(MEMERY_PIXEL_RGBA8)
            loaded.append(descriptor)
        }
    }

    static var isolateAll: Bool { ProcessInfo.processInfo.environment["MEMERY_ISOLATE_ALL"] == "1" }

    static func formatBit(_ format: memery_pixel_format) -> UInt32 { 1 << format.rawValue }

    // MARK: Parameters

    /// Reads `PARAM=VALUE` settings for a filter into checked values; parameters not given
    /// keep `base` (or the defaults when `base` is empty).
    public func parse(_ settings: [String], for id: String, over base: [String: FilterValue] = [:]) throws -> [String: FilterValue] {
        guard let descriptor = filter(id) else { throw notInstalled(id) }
        var values = base
        for setting in settings {
            guard let equals = setting.firstIndex(of: "=") else {
                throw FilterError.invalidValue(filter: id, param: setting, value: setting, expected: "written as PARAM=VALUE")
            }
            let key = String(setting[..<equals]), text = String(setting[setting.index(after: equals)...])
            guard let param = descriptor.param(key) else {
                throw FilterError.unknownParam(filter: id, param: key, known: descriptor.params.map(\.id))
            }
            values[key] = try Self.parse(text, for: param, filter: id)
        }
        return try checked(values, for: descriptor)
    }

    static func parse(_ text: String, for param: FilterDescriptor.Param, filter: String) throws -> FilterValue {
        func invalid(_ expected: String) -> FilterError { .invalidValue(filter: filter, param: param.id, value: text, expected: expected) }
        switch param.kind {
        case .number:
            guard let n = Double(text), n.isFinite else { throw invalid("a number") }
            return .number(n)
        case .integer:
            guard let n = Int64(text) else { throw invalid("a whole number") }
            return .integer(n)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "on", "1": return .boolean(true)
            case "false", "no", "off", "0": return .boolean(false)
            default: throw invalid("true or false")
            }
        case .color:
            guard let c = try? Color(parsing: text) else { throw invalid("a colour like #ff8800") }
            return .color(c)
        case .point:
            guard let p = try? Point(parsing: text) else { throw invalid("a point X,Y") }
            return .point(p)
        case .choice:
            guard let choice = param.choices.first(where: { $0.lowercased() == text.lowercased() }) else {
                throw invalid("one of " + param.choices.joined(separator: ", "))
            }
            return .choice(choice)
        }
    }

    /// Checks stored or parsed values against the declaration: known ids, right kinds, in range.
    public func checked(_ values: [String: FilterValue], for descriptor: FilterDescriptor) throws -> [String: FilterValue] {
        for (key, value) in values {
            guard let param = descriptor.param(key) else {
                throw FilterError.unknownParam(filter: descriptor.id, param: key, known: descriptor.params.map(\.id))
            }
            switch (param.kind, value) {
            case (.number, .number(let n)):
                guard n >= param.min, n <= param.max else {
                    throw FilterError.outOfRange(filter: descriptor.id, param: key, value: n, min: param.min, max: param.max)
                }
            case (.integer, .integer(let n)):
                guard Double(n) >= param.min, Double(n) <= param.max else {
                    throw FilterError.outOfRange(filter: descriptor.id, param: key, value: Double(n), min: param.min, max: param.max)
                }
            case (.choice, .choice(let c)):
                guard param.choices.contains(c) else {
                    throw FilterError.invalidValue(filter: descriptor.id, param: key, value: c, expected: "one of " + param.choices.joined(separator: ", "))
                }
            case (.boolean, .boolean), (.color, .color), (.point, .point):
                break
            default:
                throw FilterError.invalidValue(filter: descriptor.id, param: key, value: value.description, expected: "a \(param.kind.rawValue)")
            }
        }
        return values
    }

    // MARK: Migrating

    /// Stored parameters in the installed plugin's version: migrated step by step when they
    /// were saved by an older one, refused when by a newer one.
    public func current(_ params: [String: FilterValue], version: Int, for id: String) throws -> [String: FilterValue] {
        guard let descriptor = filter(id) else { throw missing([id]) }
        if version == descriptor.paramVersion { return params }
        guard version < descriptor.paramVersion else {
            throw FilterError.newerParams(filter: id, stored: version, installed: descriptor.paramVersion)
        }
        let migrated: [String: FilterValue]
        let (implementation, entry) = lock.withLock { (implementations[id], entries[id]) }
        if let implementation, let entry, !descriptor.isolated {
            let values = try runningLock(id).withLock {
                try ParamMigration.migrate(implementation, entry: entry, filter: id, params: params, from: version, to: descriptor.paramVersion)
            }
            migrated = try ParamMigration.filterValues(values, descriptor: descriptor, old: params, from: version)
        } else if descriptor.origin == .frei0r {
            migrated = params  // frei0r has no parameter versions
        } else {
            migrated = try IsolatedRunner(helper: helperPath, timeout: timeout).migrate(descriptor: descriptor, params: params, from: version)
        }
        return try checked(migrated, for: descriptor)
    }

    // MARK: Running

    /// Runs a filter on a raster; returns a new raster. Parameters not given take defaults.
    /// Isolated filters run in a helper process; whatever they do, this process goes on.
    /// `warm`: helpers kept running between runs, for isolated filters (a long-lived process's).
    public func apply(_ id: String, params: [String: FilterValue], to raster: Raster, warm: WarmHelpers? = nil) throws -> Raster {
        guard let descriptor = filter(id) else { throw missing([id]) }
        let values = try checked(params, for: descriptor)
        let (pixelFormats, implementation) = lock.withLock { (formats[id], implementations[id]) }
        let straight = pixelFormats.map { $0 & Self.formatBit(MEMERY_PIXEL_RGBA8) != 0 } ?? true
        var input = straight ? PixelConversion.straightRGBA(raster) : PixelConversion.premultipliedBGRA(raster)
        var output = [UInt8](repeating: 0, count: input.count)
        let width = raster.width, height = raster.height
        let (status, message): (Int32, String)
        if let implementation, !descriptor.isolated {
            (status, message) = runningLock(id).withLock { input.withUnsafeMutableBytes { inBytes in
                output.withUnsafeMutableBytes { outBytes in
                    Self.run(implementation, descriptor: descriptor, values: values, input: inBytes.baseAddress!, output: outBytes.baseAddress!,
                             width: width, height: height, straight: straight)
                } }
            }
        } else {
            (status, message) = try IsolatedRunner(helper: helperPath, timeout: timeout, warm: warm)
                .run(descriptor: descriptor, values: values, input: &input, output: &output, width: width, height: height, straight: straight)
        }
        if status == Int32(MEMERY_ERROR_CANCELLED.rawValue), RenderCancellation.current?.isCancelled == true { throw FilterError.cancelled(filter: id) }
        guard status == Int32(MEMERY_OK.rawValue) else { throw FilterError.failed(filter: id, status: status, message: message) }
        return try straight ? PixelConversion.raster(straightRGBA: output, width: width, height: height)
                            : PixelConversion.raster(premultipliedBGRA: output, width: width, height: height)
    }

    /// Calls a filter's process() on two buffers of width x height tightly packed pixels.
    /// Rows are `stride` bytes apart (tightly packed when nil). The one place a plugin's
    /// process() is called, for the host, the helper and `plugin check` alike.
    static func run(_ implementation: UnsafePointer<memery_filter>, descriptor: FilterDescriptor, values: [String: FilterValue],
                    input: UnsafeMutableRawPointer, output: UnsafeMutableRawPointer, width: Int, height: Int, straight: Bool,
                    stride: Int? = nil, call: PluginCall? = nil) -> (Int32, String) {
        let stride = stride ?? width * 4
        var cValues = descriptor.params.map { cValue(values[$0.id] ?? $0.defaultValue, param: $0) }
        var message = [CChar](repeating: 0, count: 512)
        let format = straight ? MEMERY_PIXEL_RGBA8 : MEMERY_PIXEL_BGRA8_PREMULTIPLIED
        var inImage = memery_image(struct_size: UInt32(MemoryLayout<memery_image>.size), width: UInt32(width), height: UInt32(height),
                                   format: format.rawValue, stride: stride, pixels: input.assumingMemoryBound(to: UInt8.self))
        var outImage = memery_image(struct_size: UInt32(MemoryLayout<memery_image>.size), width: UInt32(width), height: UInt32(height),
                                    format: format.rawValue, stride: stride, pixels: output.assumingMemoryBound(to: UInt8.self))
        let status = (call ?? PluginCall(source: descriptor.id)).withHost { host in
            cValues.withUnsafeMutableBufferPointer { valueBuffer in
                implementation.pointee.process(implementation, &host, &inImage, &outImage, valueBuffer.baseAddress, &message, message.count)
            }
        }
        message[message.count - 1] = 0
        return (Int32(bitPattern: status.rawValue), String(message: message))
    }

    static func cValue(_ value: FilterValue, param: FilterDescriptor.Param) -> memery_value {
        var v = memery_value()
        switch value {
        case .number(let n): v.number = n
        case .integer(let n): v.integer = n
        case .boolean(let b): v.boolean = b ? 1 : 0
        case .color(let c): v.color = (Float(c.red) / 255, Float(c.green) / 255, Float(c.blue) / 255, Float(c.alpha) / 255)
        case .point(let p): v.point = (p.x, p.y)
        case .choice(let c): v.choice = UInt32(param.choices.firstIndex(of: c) ?? 0)
        }
        return v
    }
}
