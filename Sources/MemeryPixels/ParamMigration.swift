import Foundation
import MemeryCore
import MemeryPluginABI

/// Stored filter parameters written for an older parameter version are brought up to the
/// installed plugin's version one step at a time through its MEMERY_EXT_MIGRATE extension
/// (darktable's legacy_params, as a C ABI). Nothing stored is rewritten: the migration is
/// done again on every read, and saved with the next change to the filter.
enum ParamMigration {
    /// The values by id, lent to the plugin through memery_param_store's callbacks.
    final class Store {
        var values: [String: memery_value]
        init(_ values: [String: memery_value]) { self.values = values }
    }

    /// Runs the plugin's migrate steps from `from` up to `to` on `params`.
    static func migrate(_ implementation: UnsafePointer<memery_filter>, entry: UnsafePointer<memery_filter_entry>, filter: String,
                        params: [String: FilterValue], from: Int, to: Int) throws -> [String: memery_value] {
        let store = Store(params.mapValues(cValue))
        guard from < to else { return store.values }
        guard let lookup = entry.pointee.extension,
              let raw = MEMERY_EXT_MIGRATE.withCString({ lookup($0) }) else {
            throw FilterError.migrationFailed(filter: filter, from: from, reason: "the plugin offers no \(MEMERY_EXT_MIGRATE) extension")
        }
        let ext = raw.assumingMemoryBound(to: memery_migrate_extension.self)
        guard ext.pointee.struct_size >= MemoryLayout<memery_migrate_extension>.size, let migrate = ext.pointee.migrate else {
            throw FilterError.migrationFailed(filter: filter, from: from, reason: "its migrate extension is malformed")
        }
        let box = Unmanaged.passRetained(store)
        defer { box.release() }
        var cStore = memery_param_store(
            struct_size: UInt32(MemoryLayout<memery_param_store>.size), host_data: box.toOpaque(),
            get: { store, id, out in
                guard let store, let id, let out else { return false }
                let values = Unmanaged<Store>.fromOpaque(store.pointee.host_data).takeUnretainedValue()
                guard let value = values.values[String(cString: id)] else { return false }
                out.pointee = value
                return true
            },
            set: { store, id, value in
                guard let store, let id, let value else { return }
                Unmanaged<Store>.fromOpaque(store.pointee.host_data).takeUnretainedValue().values[String(cString: id)] = value.pointee
            },
            remove: { store, id in
                guard let store, let id else { return }
                Unmanaged<Store>.fromOpaque(store.pointee.host_data).takeUnretainedValue().values[String(cString: id)] = nil
            })
        for version in from..<to {
            var message = [CChar](repeating: 0, count: 512)
            let status = filter.withCString { migrate($0, UInt32(version), &cStore, &message, message.count) }
            guard status == MEMERY_OK else {
                message[message.count - 1] = 0
                throw FilterError.migrationFailed(filter: filter, from: version, reason: String(message: message))
            }
        }
        return store.values
    }

    /// What a migration must leave, or the picture would change without a word (an old
    /// value lost, the parameter at its default). Creations store every parameter their
    /// plugin declared (defaults filled in), so after the steps:
    /// - no id is left that the new version does not declare (a rename forgotten);
    /// - no stored id that the new version still declares is gone (a value dropped);
    /// - when a step removed a stored id, every id the new version adds is set (a rename
    ///   that lost its value looks like that; a new parameter unrelated to the removed one
    ///   is set to its default by the step, which says so).
    static func checkComplete(_ migrated: Set<String>, descriptor: FilterDescriptor, stored: Set<String>, from: Int) throws {
        let declared = Set(descriptor.params.map(\.id))
        let version = descriptor.paramVersion
        func refuse(_ what: String) -> FilterError {
            .migrationFailed(filter: descriptor.id, from: from, reason: "after its migrate steps " + what
                + " (a bug in the plugin: install a fixed one, or take the filter off with `memery filter remove`)")
        }
        let leftover = migrated.subtracting(declared).sorted()
        if !leftover.isEmpty {
            throw refuse("""
                the parameters still hold \(leftover.joined(separator: ", ")), which version \(version) does not declare: \
                each step must rename or remove what it changes
                """)
        }
        let dropped = stored.intersection(declared).subtracting(migrated).sorted()
        if !dropped.isEmpty {
            throw refuse("""
                the parameters hold no value for \(dropped.joined(separator: ", ")), which \(dropped.count == 1 ? "was" : "were") stored \
                and version \(version) still declares: the stored value is lost
                """)
        }
        let removed = stored.subtracting(declared).sorted(), unset = declared.subtracting(stored).subtracting(migrated).sorted()
        if !removed.isEmpty && !unset.isEmpty {
            throw refuse("""
                \(removed.joined(separator: ", ")) \(removed.count == 1 ? "is" : "are") removed and none of \(unset.joined(separator: ", ")) \
                is set, which would take \(unset.count == 1 ? "its default" : "their defaults"): the stored value is lost \
                (set the new parameter from the old one, or to its default when nothing older maps to it)
                """)
        }
    }

    /// A stored value in the ABI's form; every field that could be meant is filled in.
    static func cValue(_ value: FilterValue) -> memery_value {
        var v = memery_value()
        switch value {
        case .number(let n): v.number = n; v.integer = Int64(n.rounded())
        case .integer(let n): v.integer = n; v.number = Double(n)
        case .boolean(let b): v.boolean = b ? 1 : 0
        case .color(let c): v.color = (Float(c.red) / 255, Float(c.green) / 255, Float(c.blue) / 255, Float(c.alpha) / 255)
        case .point(let p): v.point = (p.x, p.y)
        case .choice: break
        }
        return v
    }

    /// Migrated values read back by the current declaration's kinds, once they pass
    /// `checkComplete`.
    static func filterValues(_ values: [String: memery_value], descriptor: FilterDescriptor, old: [String: FilterValue],
                             from: Int) throws -> [String: FilterValue] {
        try checkComplete(Set(values.keys), descriptor: descriptor, stored: Set(old.keys), from: from)
        var result = [String: FilterValue]()
        for param in descriptor.params {
            guard let v = values[param.id] else { continue }
            switch param.kind {
            case .number: result[param.id] = .number(v.number)
            case .integer: result[param.id] = .integer(v.integer)
            case .boolean: result[param.id] = .boolean(v.boolean != 0)
            case .color:
                func byte(_ f: Float) -> UInt8 { UInt8(max(0, min(255, (f * 255).rounded()))) }
                result[param.id] = .color(Color(red: byte(v.color.0), green: byte(v.color.1), blue: byte(v.color.2), alpha: byte(v.color.3)))
            case .point: result[param.id] = .point(Point(x: v.point.0, y: v.point.1))
            case .choice:
                // Choices are stored by name; a kept name stays, an index set by the plugin is read.
                if case .choice(let name)? = old[param.id], param.choices.contains(name) { result[param.id] = .choice(name) }
                else if Int(v.choice) < param.choices.count { result[param.id] = .choice(param.choices[Int(v.choice)]) }
            }
        }
        return result
    }
}
