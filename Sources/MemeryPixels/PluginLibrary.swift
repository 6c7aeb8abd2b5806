import Foundation
import MemeryCore
import MemeryPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// One loaded plugin shared library: its entry checked, its filters' declarations read and
/// checked. A library or filter that fails a check is refused with the reason.
/// `@unchecked Sendable`, earned: everything is set in `init` and only read after; the C
/// pointers lead to the library's constant descriptors, which the ABI says are immutable.
final class PluginLibrary: @unchecked Sendable {
    struct Refusal: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "skipped plugin \(path): \(reason)" }
    }

    let path: String
    let handle: UnsafeMutableRawPointer
    let entry: UnsafePointer<memery_filter_entry>
    /// Each declared filter with the C struct it came from.
    private(set) var filters: [(descriptor: FilterDescriptor, filter: UnsafePointer<memery_filter>)] = []
    /// Filters of this library refused, with why.
    private(set) var refusedFilters: [String] = []

    init(path: String, origin: FilterDescriptor.Origin) throws {
        self.path = path
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw Refusal(path: path, reason: "it cannot be loaded (\(dlerror().map { String(cString: $0) } ?? "unknown error"))")
        }
        self.handle = handle
        guard let symbol = dlsym(handle, MEMERY_FILTER_ENTRY_SYMBOL) else {
            dlclose(handle)
            throw Refusal(path: path, reason: "it exports no \(MEMERY_FILTER_ENTRY_SYMBOL) entry symbol")
        }
        let function = unsafeBitCast(symbol, to: memery_filter_entry_function.self)
        guard let entry = function() else {
            dlclose(handle)
            throw Refusal(path: path, reason: "its entry returned no descriptor")
        }
        self.entry = entry
        do {
            try check(entry.pointee)
            if let initialize = entry.pointee.`init` {
                let source = entry.pointee.plugin_id.map { String(cString: $0) } ?? path
                guard PluginCall(source: source).withHost({ initialize(&$0) }) else { throw Refusal(path: path, reason: "its init refused to load") }
            }
        } catch {
            dlclose(handle)
            throw error
        }
        readFilters(origin: origin)
    }

    /// Whether the plugin offers MEMERY_EXT_MIGRATE, which every filter that raised its
    /// `param_version` needs.
    var offersMigration: Bool {
        guard let lookup = entry.pointee.extension else { return false }
        return MEMERY_EXT_MIGRATE.withCString { lookup($0) } != nil
    }

    private func check(_ entry: memery_filter_entry) throws {
        guard entry.struct_size >= MemoryLayout<memery_filter_entry>.size else {
            throw Refusal(path: path, reason: "its entry is \(entry.struct_size) bytes, smaller than ABI 1.0's \(MemoryLayout<memery_filter_entry>.size)")
        }
        guard entry.abi_major == MEMERY_FILTER_ABI_MAJOR else {
            throw Refusal(path: path, reason: "it was built for filter ABI \(entry.abi_major).\(entry.abi_minor); this memery hosts ABI \(MEMERY_FILTER_ABI_MAJOR).x")
        }
        guard entry.plugin_id != nil, entry.filter_count != nil, entry.filter_at != nil else {
            throw Refusal(path: path, reason: "its entry lacks plugin_id, filter_count or filter_at")
        }
    }

    /// Units ABI 1.0 lacks, from MEMERY_EXT_UNITS, for parameters declared MEMERY_UNIT_NONE.
    private func applyUnitsExtension(to descriptor: inout FilterDescriptor) {
        guard let lookup = entry.pointee.extension, let raw = MEMERY_EXT_UNITS.withCString({ lookup($0) }) else { return }
        let ext = raw.assumingMemoryBound(to: memery_units_extension.self)
        guard ext.pointee.struct_size >= MemoryLayout<memery_units_extension>.size, let unit = ext.pointee.unit else { return }
        for index in descriptor.params.indices where descriptor.params[index].unit == .none {
            let answer = descriptor.id.withCString { filter in descriptor.params[index].id.withCString { unit(filter, $0) } }
            if answer == MEMERY_UNIT_DEGREES.rawValue { descriptor.params[index].unit = .degrees }
        }
    }

    private func readFilters(origin: FilterDescriptor.Origin) {
        guard let count = entry.pointee.filter_count?(), let filterAt = entry.pointee.filter_at else { return }
        for index in 0..<min(count, 10_000) {
            guard let filter = filterAt(index) else {
                refusedFilters.append("filter \(index): filter_at returned nothing")
                continue
            }
            do {
                var descriptor = try Self.describe(filter.pointee, origin: origin, library: path)
                applyUnitsExtension(to: &descriptor)
                filters.append((descriptor, filter))
            } catch let reason as Refusal {
                refusedFilters.append("filter \(index): \(reason.reason)")
            } catch {
                refusedFilters.append("filter \(index): \(error)")
            }
        }
    }

    /// Reads and checks one declaration: sizes, a reverse-DNS id, a process function, known
    /// types and units, sane ranges, defaults within them.
    static func describe(_ f: memery_filter, origin: FilterDescriptor.Origin, library: String) throws -> FilterDescriptor {
        func refuse(_ reason: String) -> Refusal { Refusal(path: library, reason: reason) }
        guard f.struct_size >= MemoryLayout<memery_filter>.size else { throw refuse("a filter declaration of \(f.struct_size) bytes is too small") }
        guard let idPointer = f.id else { throw refuse("a filter has no id") }
        let id = String(cString: idPointer)
        guard isReverseDNS(id) else { throw refuse("filter id \"\(id)\" is not a reverse-DNS id like org.example.name") }
        guard f.process != nil else { throw refuse("filter \(id) has no process function") }
        let known = FilterHost.formatBit(MEMERY_PIXEL_RGBA8) | FilterHost.formatBit(MEMERY_PIXEL_BGRA8_PREMULTIPLIED)
        guard f.pixel_formats & known != 0 else { throw refuse("filter \(id) accepts no pixel format this host has") }
        guard f.param_version >= 1 else { throw refuse("filter \(id) declares parameter version 0; versions start at 1") }
        guard f.param_count <= 256, f.param_count == 0 || f.params != nil else { throw refuse("filter \(id) declares \(f.param_count) parameters but no table") }
        var params = [FilterDescriptor.Param]()
        for index in 0..<Int(f.param_count) {
            let p = f.params[index]
            guard p.struct_size >= MemoryLayout<memery_param>.size, let pid = p.id else {
                throw refuse("filter \(id) parameter \(index) is malformed")
            }
            let paramID = String(cString: pid)
            guard !paramID.isEmpty, !params.contains(where: { $0.id == paramID }) else {
                throw refuse("filter \(id) has an empty or repeated parameter id \"\(paramID)\"")
            }
            params.append(try describe(p, id: paramID, filter: id, refuse: refuse))
        }
        return FilterDescriptor(id: id, name: f.name.map { String(cString: $0) } ?? id, description: f.description.map { String(cString: $0) },
                                paramVersion: Int(f.param_version), deterministic: f.flags & MEMERY_FILTER_DETERMINISTIC != 0,
                                origin: origin, library: library, params: params)
    }

    private static func describe(_ p: memery_param, id: String, filter: String, refuse: (String) -> Refusal) throws -> FilterDescriptor.Param {
        let kinds: [UInt32: FilterDescriptor.Param.Kind] = [
            MEMERY_PARAM_NUMBER.rawValue: .number, MEMERY_PARAM_INTEGER.rawValue: .integer, MEMERY_PARAM_BOOLEAN.rawValue: .boolean,
            MEMERY_PARAM_COLOR.rawValue: .color, MEMERY_PARAM_POINT.rawValue: .point, MEMERY_PARAM_CHOICE.rawValue: .choice,
        ]
        let units: [UInt32: FilterDescriptor.Param.Unit] = [
            MEMERY_UNIT_NONE.rawValue: .none, MEMERY_UNIT_PIXELS.rawValue: .pixels, MEMERY_UNIT_FRACTION.rawValue: .fraction,
            MEMERY_UNIT_DEGREES.rawValue: .degrees,
        ]
        guard let kind = kinds[p.type] else { throw refuse("filter \(filter) parameter \(id) has unknown type \(p.type)") }
        guard let unit = units[p.unit] else { throw refuse("filter \(filter) parameter \(id) has unknown unit \(p.unit)") }
        var choices = [String]()
        let d = p.default_value
        let defaultValue: FilterValue
        switch kind {
        case .number, .integer:
            guard p.min.isFinite, p.max.isFinite, p.min <= p.max else { throw refuse("filter \(filter) parameter \(id) has range \(p.min)...\(p.max)") }
            let value = kind == .number ? d.number : Double(d.integer)
            guard value >= p.min, value <= p.max else { throw refuse("filter \(filter) parameter \(id) defaults to \(value), outside \(p.min)...\(p.max)") }
            defaultValue = kind == .number ? .number(d.number) : .integer(d.integer)
        case .boolean:
            defaultValue = .boolean(d.boolean != 0)
        case .color:
            let c = d.color
            func byte(_ v: Float) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
            defaultValue = .color(.init(red: byte(c.0), green: byte(c.1), blue: byte(c.2), alpha: byte(c.3)))
        case .point:
            defaultValue = .point(.init(x: d.point.0, y: d.point.1))
        case .choice:
            guard p.choice_count >= 1, p.choice_count <= 1024, let table = p.choices else {
                throw refuse("filter \(filter) parameter \(id) is a choice with no choices")
            }
            choices = (0..<Int(p.choice_count)).map { table[$0].map { String(cString: $0) } ?? "" }
            guard Int(d.choice) < choices.count, !choices.contains("") else {
                throw refuse("filter \(filter) parameter \(id) has an empty choice or a default past the last")
            }
            defaultValue = .choice(choices[Int(d.choice)])
        }
        return FilterDescriptor.Param(id: id, name: p.name.map { String(cString: $0) } ?? id,
                                      description: p.description.map { String(cString: $0) },
                                      kind: kind, unit: unit, min: p.min, max: p.max, defaultValue: defaultValue, choices: choices)
    }

    static func isReverseDNS(_ id: String) -> Bool {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 3 && parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
    }
}
