import Foundation
import MemeryCore
import MemeryPluginABI

/// Finds filter plugins, checks parameters against their declarations before a plugin sees
/// them, and runs filters on rasters.
///
/// Discovery, this version: the built-in plugin (libmemery-builtins.so) beside the running
/// executable. Third-party plugins will be loaded from $MEMERY_PLUGIN_PATH and
/// $XDG_DATA_HOME/memery/plugins once they can run isolated in a helper process.
public final class FilterHost: @unchecked Sendable {
    public private(set) var filters: [FilterDescriptor] = []
    /// Plugins or filters that were skipped, each with the file and the reason.
    public private(set) var warnings: [String] = []
    private var implementations: [String: UnsafePointer<memery_filter>] = [:]
    private var libraries: [PluginLibrary] = []

    /// The host with the built-in filters, loaded once per process.
    public static let shared = FilterHost(builtinDirectory: FilterHost.executableDirectory())

    public static let builtinLibraryName = "libmemery-builtins.so"

    public init(builtinDirectory: String?) {
        if let builtinDirectory {
            load(URL(fileURLWithPath: builtinDirectory).appendingPathComponent(Self.builtinLibraryName).path, origin: .builtin)
        }
    }

    /// Loads one plugin library; a refusal becomes a warning, never an error.
    func load(_ path: String, origin: FilterDescriptor.Origin) {
        guard FileManager.default.fileExists(atPath: path) else {
            warnings.append("no plugin at \(path)")
            return
        }
        do {
            let library = try PluginLibrary(path: path, origin: origin)
            libraries.append(library)
            warnings += library.refusedFilters.map { "skipped in \(path): \($0)" }
            for (descriptor, filter) in library.filters {
                guard implementations[descriptor.id] == nil else {
                    warnings.append("skipped \(descriptor.id) from \(path): another plugin already provides it")
                    continue
                }
                implementations[descriptor.id] = filter
                filters.append(descriptor)
            }
        } catch {
            warnings.append(String(describing: error))
        }
    }

    public func filter(_ id: String) -> FilterDescriptor? { filters.first { $0.id == id } }

    static func executableDirectory() -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return Bundle.main.executableURL?.deletingLastPathComponent().path
        }
        return URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    static func formatBit(_ format: memery_pixel_format) -> UInt32 { 1 << format.rawValue }

    // MARK: Parameters

    /// Reads `PARAM=VALUE` settings for a filter into checked values; parameters not given
    /// keep `base` (or the defaults when `base` is empty).
    public func parse(_ settings: [String], for id: String, over base: [String: FilterValue] = [:]) throws -> [String: FilterValue] {
        guard let descriptor = filter(id) else { throw FilterError.unknownFilter(id) }
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
            guard let c = try? Color(hex: text) else { throw invalid("a colour like #ff8800") }
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

    // MARK: Running

    /// Runs a filter on a raster; returns a new raster. Parameters not given take defaults.
    public func apply(_ id: String, params: [String: FilterValue], to raster: Raster) throws -> Raster {
        guard let descriptor = filter(id), let implementation = implementations[id] else { throw FilterError.missing([id]) }
        let values = try checked(params, for: descriptor)
        var cValues = descriptor.params.map { Self.cValue(values[$0.id] ?? $0.defaultValue, param: $0) }
        let formats = implementation.pointee.pixel_formats
        let straight = formats & Self.formatBit(MEMERY_PIXEL_RGBA8) != 0
        let width = raster.width, height = raster.height, stride = width * 4
        var input = straight ? PixelConversion.straightRGBA(raster) : PixelConversion.premultipliedBGRA(raster)
        var output = [UInt8](repeating: 0, count: input.count)
        var message = [CChar](repeating: 0, count: 512)
        var host = Self.cHost
        let status: memery_status = input.withUnsafeMutableBufferPointer { inBytes in
            output.withUnsafeMutableBufferPointer { outBytes in
                let format = straight ? MEMERY_PIXEL_RGBA8 : MEMERY_PIXEL_BGRA8_PREMULTIPLIED
                var inImage = memery_image(struct_size: UInt32(MemoryLayout<memery_image>.size), width: UInt32(width), height: UInt32(height),
                                           format: format.rawValue, stride: stride, pixels: inBytes.baseAddress)
                var outImage = memery_image(struct_size: UInt32(MemoryLayout<memery_image>.size), width: UInt32(width), height: UInt32(height),
                                            format: format.rawValue, stride: stride, pixels: outBytes.baseAddress)
                return cValues.withUnsafeMutableBufferPointer { valueBuffer in
                    implementation.pointee.process(implementation, &host, &inImage, &outImage, valueBuffer.baseAddress, &message, message.count)
                }
            }
        }
        guard status == MEMERY_OK else {
            message[message.count - 1] = 0
            throw FilterError.failed(filter: id, status: Int32(status.rawValue), message: String(cString: message))
        }
        return try straight ? PixelConversion.raster(straightRGBA: output, width: width, height: height)
                            : PixelConversion.raster(premultipliedBGRA: output, width: width, height: height)
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

    /// What plugins see of the host: a log to standard error and a progress that never cancels.
    static var cHost: memery_host {
        memery_host(struct_size: UInt32(MemoryLayout<memery_host>.size), abi_major: UInt16(MEMERY_FILTER_ABI_MAJOR),
                    abi_minor: UInt16(MEMERY_FILTER_ABI_MINOR), host_data: nil,
                    log: { _, level, text in
                        guard level >= MEMERY_LOG_WARNING.rawValue, let text else { return }
                        FileHandle.standardError.write(Data("plugin: \(String(cString: text))\n".utf8))
                    },
                    progress: { _, _ in true })
    }
}
