import Foundation
import MemeryCore
#if canImport(Glibc)
import Glibc
#endif

/// A frei0r filter (the plugin format Debian's frei0r-plugins ship), shown as a Memery filter
/// `frei0r.<name>` with its parameters under string ids. frei0r's own rules are kept here:
/// frames of whole multiples of 8 pixels, 16-byte aligned, in the plugin's colour model
/// (BGRA8888, RGBA8888 or PACKED32); doubles and positions in [0, 1].
///
/// Loaded and run only in the helper process (`PluginWorker`): frei0r's code is not ours,
/// and no plugin may crash memery.
///
/// `@unchecked Sendable`, earned: nothing changes after init, and each run constructs its own
/// instance, which frei0r allows to run beside other instances.
final class Frei0rPlugin: @unchecked Sendable {
    // The frei0r C API (frei0r.h), looked up by name.
    private struct PluginInfo {
        var name: UnsafePointer<CChar>?, author: UnsafePointer<CChar>?
        var pluginType: Int32 = 0, colorModel: Int32 = 0, frei0rVersion: Int32 = 0
        var majorVersion: Int32 = 0, minorVersion: Int32 = 0, numParams: Int32 = 0
        var explanation: UnsafePointer<CChar>?
    }
    private struct ParamInfo {
        var name: UnsafePointer<CChar>?
        var type: Int32 = 0
        var explanation: UnsafePointer<CChar>?
    }
    private typealias Construct = @convention(c) (UInt32, UInt32) -> UnsafeMutableRawPointer?
    private typealias Destruct = @convention(c) (UnsafeMutableRawPointer?) -> Void
    private typealias SetParam = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32) -> Void
    private typealias Update = @convention(c) (UnsafeMutableRawPointer?, Double, UnsafePointer<UInt32>?, UnsafeMutablePointer<UInt32>?) -> Void

    /// The frame defaults are read from: 720p video.
    static let referenceFrame: (width: UInt32, height: UInt32) = (1280, 720)

    static let directories = ["/usr/lib/frei0r-1", "/usr/local/lib/frei0r-1", "/usr/lib/x86_64-linux-gnu/frei0r-1"]
        + [ProcessInfo.processInfo.environment["HOME"].map { $0 + "/.frei0r-1/lib" }].compactMap { $0 }

    let path: String
    let descriptor: FilterDescriptor
    private let handle: UnsafeMutableRawPointer
    private let colorModel: Int32
    /// frei0r's parameter index for each of the descriptor's parameters.
    private let indexes: [Int32]
    /// String parameters set on every instance, by frei0r's index.
    private let strings: [(Int32, String)]
    private let construct: Construct, destruct: Destruct, setParam: SetParam, update: Update

    /// Loads one frei0r library; nil when it is not a usable filter (a source or mixer, or
    /// a symbol missing).
    init?(path: String) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, _: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: T.self) } }
        typealias Init = @convention(c) () -> Int32
        typealias GetInfo = @convention(c) (UnsafeMutableRawPointer?) -> Void
        typealias GetParamInfo = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Void
        typealias GetParam = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32) -> Void
        guard let initialize = symbol("f0r_init", Init.self), let getInfo = symbol("f0r_get_plugin_info", GetInfo.self),
              let getParamInfo = symbol("f0r_get_param_info", GetParamInfo.self), let getParam = symbol("f0r_get_param_value", GetParam.self),
              let construct = symbol("f0r_construct", Construct.self), let destruct = symbol("f0r_destruct", Destruct.self),
              let setParam = symbol("f0r_set_param_value", SetParam.self), let update = symbol("f0r_update", Update.self),
              initialize() != 0 else {
            dlclose(handle)
            return nil
        }
        var info = PluginInfo()
        withUnsafeMutablePointer(to: &info) { getInfo(UnsafeMutableRawPointer($0)) }
        guard info.pluginType == 0 /* F0R_PLUGIN_TYPE_FILTER */, (0...2).contains(info.colorModel), let name = info.name else {
            dlclose(handle)
            return nil
        }
        self.path = path
        self.handle = handle
        self.colorModel = info.colorModel
        self.construct = construct; self.destruct = destruct; self.setParam = setParam; self.update = update
        // Defaults are read from an instance, as frei0r keeps them there, and some depend on
        // the frame's size (pixeliz0r's block of 8 pixels is 1.0 of an 8-pixel frame, which
        // flattens a photo to four blocks): read them from a frame of a size frei0r's own
        // hosts use, as MLT does, so that each default shows what the filter does.
        // Then Memery's own, where frei0r's would show a still picture unchanged (Frei0rStills).
        let instance = construct(Self.referenceFrame.width, Self.referenceFrame.height)
        defer { destruct(instance) }
        let filterID = "frei0r." + Self.slug(String(cString: name))
        let stills = Frei0rStills.defaults[filterID] ?? [:], strings = Frei0rStills.strings[filterID] ?? [:]
        var params = [FilterDescriptor.Param](), indexes = [Int32](), stringValues = [(Int32, String)]()
        for index in 0..<max(0, min(info.numParams, 256)) {
            var p = ParamInfo()
            withUnsafeMutablePointer(to: &p) { getParamInfo(UnsafeMutableRawPointer($0), index) }
            guard let pname = p.name else { continue }
            let title = String(cString: pname)
            var id = Self.slug(title)
            if id.isEmpty || params.contains(where: { $0.id == id }) { id = "param-\(index)" }
            var defaultValue: FilterValue
            var kind: FilterDescriptor.Param.Kind
            switch p.type {
            case 0, 1:  // bool, double: a double either way
                var d = 0.0
                withUnsafeMutablePointer(to: &d) { getParam(instance, UnsafeMutableRawPointer($0), index) }
                if !d.isFinite { d = 0 }
                kind = p.type == 0 ? .boolean : .number
                defaultValue = p.type == 0 ? .boolean(d >= 0.5) : .number(min(1, max(0, d)))
            case 2:
                var c: (Float, Float, Float) = (0, 0, 0)
                withUnsafeMutablePointer(to: &c) { getParam(instance, UnsafeMutableRawPointer($0), index) }
                func byte(_ v: Float) -> UInt8 { v.isFinite ? UInt8(max(0, min(255, (v * 255).rounded()))) : 0 }
                kind = .color
                defaultValue = .color(Color(red: byte(c.0), green: byte(c.1), blue: byte(c.2)))
            case 3:
                var position: (Double, Double) = (0, 0)
                withUnsafeMutablePointer(to: &position) { getParam(instance, UnsafeMutableRawPointer($0), index) }
                kind = .point
                defaultValue = .point(Point(x: position.0.isFinite ? position.0 : 0, y: position.1.isFinite ? position.1 : 0))
            case 4:
                // Strings are not shown; one is set only where the plugin's own would not work.
                if let value = strings[id], FileManager.default.fileExists(atPath: value) { stringValues.append((index, value)) }
                continue
            default:
                continue
            }
            if let still = stills[id], Self.fits(still, kind) { defaultValue = still }
            params.append(FilterDescriptor.Param(id: id, name: title, description: p.explanation.map { String(cString: $0) },
                                                 kind: kind, unit: kind == .point ? .fraction : .none, min: 0, max: 1,
                                                 defaultValue: defaultValue, choices: []))
            indexes.append(index)
        }
        self.indexes = indexes
        self.strings = stringValues
        descriptor = FilterDescriptor(id: filterID, name: String(cString: name),
                                      description: info.explanation.map { String(cString: $0) }, paramVersion: 1,
                                      deterministic: false, origin: .frei0r, library: path, params: params)
    }

    /// Whether a value is of a frei0r parameter's kind (bool, double, colour or position).
    static func fits(_ value: FilterValue, _ kind: FilterDescriptor.Param.Kind) -> Bool {
        switch (value, kind) {
        case (.number, .number), (.boolean, .boolean), (.color, .color), (.point, .point): true
        default: false
        }
    }

    static func slug(_ text: String) -> String {
        var result = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                result.append(character)
            } else if !result.hasSuffix("-") && !result.isEmpty {
                result.append("-")
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result
    }

    /// Every frei0r library installed, in the order their ids take precedence.
    static func files() -> [String] {
        directories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().filter { $0.hasSuffix(".so") }.map { directory + "/" + $0 }
        }
    }

    /// Every frei0r filter in `paths` (all installed by default), first of each id.
    static func all(_ paths: [String] = files()) -> [Frei0rPlugin] {
        var found = [Frei0rPlugin](), seen = Set<String>()
        for path in paths {
            guard let plugin = Frei0rPlugin(path: path), seen.insert(plugin.descriptor.id).inserted else { continue }
            found.append(plugin)
        }
        return found
    }

    /// Runs the filter over tightly packed straight-alpha RGBA pixels, in place.
    func run(values: [String: FilterValue], pixels: inout [UInt8], width: Int, height: Int) {
        // frei0r wants whole multiples of 8: the frame is padded by repeating the edges.
        let paddedW = (width + 7) / 8 * 8, paddedH = (height + 7) / 8 * 8
        let count = paddedW * paddedH
        let input = UnsafeMutableRawPointer.allocate(byteCount: count * 4, alignment: 16)
        let output = UnsafeMutableRawPointer.allocate(byteCount: count * 4, alignment: 16)
        defer { input.deallocate(); output.deallocate() }
        let swap = colorModel == 0  // BGRA8888: blue first in memory
        let bytes = input.assumingMemoryBound(to: UInt8.self)
        for y in 0..<paddedH {
            for x in 0..<paddedW {
                let source = (min(y, height - 1) * width + min(x, width - 1)) * 4, target = (y * paddedW + x) * 4
                bytes[target] = pixels[source + (swap ? 2 : 0)]
                bytes[target + 1] = pixels[source + 1]
                bytes[target + 2] = pixels[source + (swap ? 0 : 2)]
                bytes[target + 3] = pixels[source + 3]
            }
        }
        let instance = construct(UInt32(paddedW), UInt32(paddedH))
        defer { destruct(instance) }
        for (param, index) in zip(descriptor.params, indexes) {
            switch values[param.id] ?? param.defaultValue {
            case .number(let n): var d = n; withUnsafeMutablePointer(to: &d) { setParam(instance, UnsafeMutableRawPointer($0), index) }
            case .boolean(let b): var d = b ? 1.0 : 0.0; withUnsafeMutablePointer(to: &d) { setParam(instance, UnsafeMutableRawPointer($0), index) }
            case .color(let c):
                var rgb = (Float(c.red) / 255, Float(c.green) / 255, Float(c.blue) / 255)
                withUnsafeMutablePointer(to: &rgb) { setParam(instance, UnsafeMutableRawPointer($0), index) }
            case .point(let p):
                var position = (p.x, p.y)
                withUnsafeMutablePointer(to: &position) { setParam(instance, UnsafeMutableRawPointer($0), index) }
            default: break
            }
        }
        for (index, value) in strings {
            value.withCString { text in
                var pointer: UnsafePointer<CChar>? = text  // frei0r's f0r_param_string is a char *, passed by address
                withUnsafeMutablePointer(to: &pointer) { setParam(instance, UnsafeMutableRawPointer($0), index) }
            }
        }
        // The output starts as the input: some filters draw into it (colorhalftone ANDs its
        // dots in, cartoon and medians leave borders), and an unset frame made them black.
        // A filter that finds something in one frame and acts in the next is shown the
        // picture as a clip of a few frames (Frei0rStills.frames), and the last one kept.
        for frame in 0..<(Frei0rStills.frames[descriptor.id] ?? 1) {
            output.copyMemory(from: input, byteCount: count * 4)
            update(instance, Double(frame) / 25, UnsafePointer(input.assumingMemoryBound(to: UInt32.self)), output.assumingMemoryBound(to: UInt32.self))
        }
        let result = output.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let source = (y * paddedW + x) * 4, target = (y * width + x) * 4
                pixels[target] = result[source + (swap ? 2 : 0)]
                pixels[target + 1] = result[source + 1]
                pixels[target + 2] = result[source + (swap ? 0 : 2)]
                pixels[target + 3] = result[source + 3]
            }
        }
    }
}

/// `memery-bench frei0r`'s peer: a frei0r filter loaded into and run in this process, as
/// memery did before frei0r moved to the helper. Nothing else may use it.
public final class Frei0rInProcessForBench {
    private let plugin: Frei0rPlugin

    public init(_ id: String) throws {
        guard let plugin = Frei0rPlugin.all().first(where: { $0.descriptor.id == id }) else { throw FilterError.unknownFilter(id) }
        self.plugin = plugin
    }

    public func apply(params: [String: FilterValue], to raster: Raster) throws -> Raster {
        var pixels = PixelConversion.straightRGBA(raster)
        plugin.run(values: params, pixels: &pixels, width: raster.width, height: raster.height)
        return try PixelConversion.raster(straightRGBA: pixels, width: raster.width, height: raster.height)
    }
}
