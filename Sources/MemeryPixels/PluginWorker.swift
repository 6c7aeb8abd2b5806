import Foundation
import MemeryCore
import MemeryPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// The helper process's side of isolation (`memery __plugin-worker ...`): it loads one
/// plugin, answers one request, and exits. Whatever the plugin does happens here. A warm one
/// (`--warm`, `WarmHelpers.Kind.plugins`) runs filters one job after another: each job the
/// run request with two memory files, the pixels' and its errors', answered with a byte (0:
/// the reply follows; 1: it failed, as its errors say).
public enum PluginWorker {
    public static func main(_ arguments: [String]) -> Int32 {
        PluginLog.relaying = true
        if arguments == [WarmHelpers.argument] {
            // Libraries read once are kept for the helper's life (reading a frei0r filter
            // builds an instance to learn its defaults): that is what a warm helper saves.
            var loaded = LoadedPlugins()
            return WarmWorker.serve(descriptors: 2) { message, descriptors in
                do {
                    let request = try JSONDecoder().decode(IsolatedRunner.RunRequest.self, from: message)
                    return Data([0]) + (try JSONEncoder().encode(try run(request, handed: descriptors[0], loaded: &loaded)))
                } catch {
                    FileHandle.standardError.write(Data("\(error)\n".utf8))
                    return Data([1])
                }
            }
        }
        do {
            switch arguments.first {
            case "describe-frei0r":
                // Every installed frei0r filter at once, or those of the files named.
                let plugins = arguments.count > 1 ? Frei0rPlugin.all(Array(arguments.dropFirst())) : Frei0rPlugin.all()
                let reply = IsolatedRunner.DescribeReply(filters: plugins.map { .init(descriptor: $0.descriptor, pixelFormats: FilterHost.formatBit(MEMERY_PIXEL_RGBA8)) },
                                                         warnings: [])
                FileHandle.standardOutput.write(try JSONEncoder().encode(reply))
            case "describe" where arguments.count == 3:
                try describe(path: arguments[1], origin: FilterDescriptor.Origin(rawValue: arguments[2]) ?? .user)
            case "run" where arguments.count == 1:
                let request = try JSONDecoder().decode(IsolatedRunner.RunRequest.self, from: FileHandle.standardInput.readDataToEndOfFile())
                var loaded = LoadedPlugins()
                FileHandle.standardOutput.write(try JSONEncoder().encode(try run(request, handed: nil, loaded: &loaded)))
            case "migrate" where arguments.count == 1:
                let request = try JSONDecoder().decode(IsolatedRunner.MigrateRequest.self, from: FileHandle.standardInput.readDataToEndOfFile())
                let library = try PluginLibrary(path: request.library, origin: .user)
                guard let (descriptor, implementation) = library.filters.first(where: { $0.descriptor.id == request.filter }) else {
                    throw FilterError.unknownFilter(request.filter)
                }
                var reply = IsolatedRunner.MigrateReply()
                do {
                    let values = try ParamMigration.migrate(implementation, entry: library.entry, filter: request.filter, params: request.params,
                                                            from: request.from, to: descriptor.paramVersion)
                    reply.params = try ParamMigration.filterValues(values, descriptor: descriptor, old: request.params, from: request.from)
                } catch FilterError.migrationFailed(_, let from, let reason) {
                    // The host words it: the reason alone, not the whole sentence again.
                    reply.error = reason
                    reply.failedFrom = from
                } catch {
                    reply.error = "\(error)"
                }
                FileHandle.standardOutput.write(try JSONEncoder().encode(reply))
            case "check-run" where arguments.count == 1:
                let request = try JSONDecoder().decode(PluginCheck.RunRequest.self, from: FileHandle.standardInput.readDataToEndOfFile())
                FileHandle.standardOutput.write(try JSONEncoder().encode(try PluginCheck.workerRun(request)))
            default:
                FileHandle.standardError.write(Data("usage: memery __plugin-worker (describe PATH ORIGIN | run < request)\n".utf8))
                return 2
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 1
        }
    }

    private static func describe(path: String, origin: FilterDescriptor.Origin) throws {
        var reply = IsolatedRunner.DescribeReply(filters: [], warnings: [])
        do {
            let library = try PluginLibrary(path: path, origin: origin)
            reply.filters = library.filters.map { .init(descriptor: $0.descriptor, pixelFormats: $0.filter.pointee.pixel_formats) }
            reply.warnings = library.refusedFilters.map { "skipped in \(path): \($0)" }
            reply.migrates = library.offersMigration
        } catch {
            reply.warnings = [String(describing: error)]
        }
        FileHandle.standardOutput.write(try JSONEncoder().encode(reply))
    }

    /// The plugin libraries a helper has read, by path.
    struct LoadedPlugins {
        var frei0r: [String: Frei0rPlugin] = [:]
        var libraries: [String: PluginLibrary] = [:]
    }

    /// The pixels' memory (input, then output): the memory file a warm helper was handed,
    /// else the shared memory the request names. Closed by the caller.
    private static func pixelsFile(_ request: IsolatedRunner.RunRequest, handed: Int32?) -> Int32 {
        handed.map { dup($0) } ?? shm_open(request.sharedMemory, O_RDWR, 0)
    }

    private static func runFrei0r(_ request: IsolatedRunner.RunRequest, handed: Int32?, loaded: inout LoadedPlugins) throws -> IsolatedRunner.RunReply {
        guard let plugin = loaded.frei0r[request.library] ?? Frei0rPlugin(path: request.library), plugin.descriptor.id == request.filter else {
            throw FilterError.unknownFilter(request.filter)
        }
        loaded.frei0r[request.library] = plugin
        let size = request.width * request.height * 4
        let fd = pixelsFile(request, handed: handed)
        defer { if fd >= 0 { close(fd) } }
        guard fd >= 0, let memory = mmap(nil, size * 2, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0), memory != MAP_FAILED else {
            throw FilterError.isolationFailed(filter: request.filter, reason: "the shared memory could not be opened")
        }
        defer { munmap(memory, size * 2) }
        var pixels = [UInt8](UnsafeRawBufferPointer(start: memory, count: size))
        plugin.run(values: request.params, pixels: &pixels, width: request.width, height: request.height)
        pixels.withUnsafeBytes { (memory + size).copyMemory(from: $0.baseAddress!, byteCount: size) }
        return IsolatedRunner.RunReply(status: 0, message: "")
    }

    private static func run(_ request: IsolatedRunner.RunRequest, handed: Int32?, loaded: inout LoadedPlugins) throws -> IsolatedRunner.RunReply {
        if request.origin == .frei0r { return try runFrei0r(request, handed: handed, loaded: &loaded) }
        let library = try loaded.libraries[request.library] ?? PluginLibrary(path: request.library, origin: .user)
        loaded.libraries[request.library] = library
        guard let (descriptor, implementation) = library.filters.first(where: { $0.descriptor.id == request.filter }) else {
            throw FilterError.unknownFilter(request.filter)
        }
        let size = request.width * request.height * 4
        let fd = pixelsFile(request, handed: handed)
        defer { if fd >= 0 { close(fd) } }
        guard fd >= 0, let memory = mmap(nil, size * 2, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0), memory != MAP_FAILED else {
            throw FilterError.isolationFailed(filter: request.filter, reason: "the shared memory could not be opened")
        }
        defer { munmap(memory, size * 2) }
        // The filter gets guarded copies with padded rows, as in `plugin check`: running past
        // either end faults and is named, writing a row's padding is refused.
        GuardedPixels.installFaultHandler()
        let input = try GuardedPixels(width: request.width, height: request.height, padding: PluginCheck.padding, label: "its input", filter: request.filter, canary: 0x5A)
        let output = try GuardedPixels(width: request.width, height: request.height, padding: PluginCheck.padding, label: "its output", filter: request.filter)
        input.fill(from: memory)
        input.seal()
        input.watch(slot: 0)
        output.watch(slot: 1)
        HelperStop.listen()
        let call = PluginCall(source: request.filter)
        call.deadline = request.stopAfter.map { .now + .milliseconds(Int64($0 * 1000)) }
        let (status, message) = FilterHost.run(implementation, descriptor: descriptor, values: request.params, input: UnsafeMutableRawPointer(input.pixels),
                                               output: UnsafeMutableRawPointer(output.pixels), width: request.width, height: request.height,
                                               straight: request.straight, stride: input.stride, call: call)
        var reply = IsolatedRunner.RunReply(status: status, message: message, stopped: call.stopped)
        if let stray = output.strayWrite() { reply.overrun = stray } else { output.copy(to: memory + size) }
        return reply
    }
}
