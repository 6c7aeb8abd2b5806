import CLMDB
import Foundation
import Memery
import MemeryRender
import MemeryStore

/// Measurements for `make bench`, each beside a peer measured in the same run.
///
///     memery-bench make-jpeg FILE [WIDTH HEIGHT]   a photo-like test JPEG (default 4000x3000)
///     memery-bench floor FILE RUNS                 gdk-pixbuf decode + JPEG q90 encode, the floor under `quick`
///     memery-bench appends DIR COUNT               durable single-event appends/s: Memery's store vs a raw LMDB loop
///     memery-bench history DIR                     open at 10, 10,000 and 100,000 edits (snapshot + tail vs full replay), checkout and history (--last 20 too) at 100,000, then `layers`
///     memery-bench layers DIR                      the first undo, redo, checkout and history (--last 20 too) in a new process at 5,000 edits with 2,000 layers
///     memery-bench cold-history DIR NAME RUNS      whole history of an existing creation, each in a new Workspace (for paired builds)
///     memery-bench state DIR RUNS                  encoding and decoding the state of layers' creation (DIR made by `layers`)
///     memery-bench replay DIR COUNT [RUNS]         read, check, decode and fold COUNT events (RUNS times, default 5)
///     memery-bench batched DIR COUNT RUNS [store]  batched appends (1,000 per transaction), split into encoding and storing
///                                                  (with "store", the store's appends alone: a run to profile)
///     memery-bench preview FILE RUNS               each encoding of a 1280 px preview, and the scaling to it
///     memery-bench filters FILE RUNS               built-in grayscale and blur (radius 10) in MP/s, and a memory copy
///     memery-bench frei0r FILE RUNS                frei0r filters through the helper beside the same in this process
///     memery-bench helpers RUNS FILE...            decoding in this process, in a helper of its own, in a warm helper
///     memery-bench watch MEMERY HUB-A HUB-B RUNS   an edit from one machine's store to another's, both `sync --watch` (scripts/bench-hub)
@main
enum Bench {
    static func main() throws {
        let args = CommandLine.arguments.dropFirst()
        switch args.first {
        case "make-jpeg":
            let path = args.dropFirst().first ?? "bench.jpg"
            let width = Int(args.dropFirst(2).first ?? "") ?? 4000
            let height = Int(args.dropFirst(3).first ?? "") ?? 3000
            try makeJPEG(path, width: width, height: height)
        case "floor":
            let path = args.dropFirst().first ?? "bench.jpg"
            try floor(path, runs: Int(args.dropFirst(2).first ?? "") ?? 5)
        case "appends":
            let dir = args.dropFirst().first ?? "bench-store"
            try appends(in: dir, count: Int(args.dropFirst(2).first ?? "") ?? 1000)
        case "batched":
            try BatchBench.run(in: args.dropFirst().first ?? "bench-batched", count: Int(args.dropFirst(2).first ?? "") ?? 200_000,
                               runs: Int(args.dropFirst(3).first ?? "") ?? 5, storeOnly: args.dropFirst(4).first == "store")
        case "filters":
            try FilterBench.run(args.dropFirst().first ?? "bench.jpg", runs: Int(args.dropFirst(2).first ?? "") ?? 5)
        case "frei0r":
            try FilterBench.frei0r(args.dropFirst().first ?? "bench.jpg", runs: Int(args.dropFirst(2).first ?? "") ?? 5)
        case "helpers":
            try HelperBench.run(Array(args.dropFirst(2)), runs: Int(args.dropFirst().first ?? "") ?? 20)
        case "history":
            try HistoryBench.run(in: args.dropFirst().first ?? "bench-history")
        case "layers":
            let url = URL(fileURLWithPath: args.dropFirst().first ?? "bench-layers")
            try? FileManager.default.removeItem(at: url)
            try HistoryBench.manyLayers(in: url)
        case "cold-history":
            let rest = Array(args.dropFirst())
            guard rest.count == 3, let runs = Int(rest[2]), runs > 0 else {
                print("usage: memery-bench cold-history DIR NAME RUNS")
                exit(2)
            }
            try HistoryBench.coldHistory(in: URL(fileURLWithPath: rest[0]), name: rest[1], runs: runs)
        case "state":
            try HistoryBench.stateCoding(in: URL(fileURLWithPath: args.dropFirst().first ?? "bench-layers"), runs: Int(args.dropFirst(2).first ?? "") ?? 20)
        case "preview":
            try PreviewBench.run(args.dropFirst().first ?? "bench.jpg", runs: Int(args.dropFirst(2).first ?? "") ?? 5)
        case "replay":
            try HistoryBench.replay(in: args.dropFirst().first ?? "bench-replay", count: Int(args.dropFirst(2).first ?? "") ?? 1_000_000,
                                    runs: Int(args.dropFirst(3).first ?? "") ?? 5)
        case "watch":
            let rest = Array(args.dropFirst())
            guard rest.count == 4, let runs = Int(rest[3]), runs > 0 else {
                print("usage: memery-bench watch MEMERY HUB-A HUB-B RUNS")
                exit(2)
            }
            try WatchBench.run(memery: rest[0], hubs: (rest[1], rest[2]), runs: runs)
        default:
            print("usage: memery-bench make-jpeg FILE [W H] | floor FILE RUNS | appends DIR COUNT | history DIR | layers DIR | cold-history DIR NAME RUNS | state LAYERS-DIR RUNS | replay DIR COUNT [RUNS] | batched DIR COUNT RUNS [store] | filters FILE RUNS | frei0r FILE RUNS | helpers RUNS FILE... | preview FILE RUNS | watch MEMERY HUB-A HUB-B RUNS")
            exit(2)
        }
    }

    /// Smooth gradients with grain, so JPEG has real work to do, as with a photograph.
    static func makeJPEG(_ path: String, width: Int, height: Int) throws {
        let raster = try Raster(width: width, height: height)
        var seed: UInt32 = 12345
        raster.withMutablePixels { pixels, stride in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    seed = seed &* 1_664_525 &+ 1_013_904_223
                    let grain = Int(seed >> 28) - 8
                    let r = (x * 255 / width + grain).clamped, g = (y * 255 / height + grain).clamped
                    let b = ((x + y) * 255 / (width + height) + grain * 2).clamped
                    row[x] = 0xff00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                }
            }
        }
        try AtomicFile.write(try ImageEncoder.encode(raster, as: .jpeg, quality: 92), to: URL(fileURLWithPath: path))
        print("wrote \(path) (\(width)x\(height))")
    }

    static func floor(_ path: String, runs: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var times = [Double]()
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let (raster, _) = try ImageDecoder().decode(data, source: path)
            _ = try ImageEncoder.encode(raster, as: .jpeg, quality: 90)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        times.sort()
        print(String(format: "floor (decode + encode JPEG q90, in-process): median %.3f s, min %.3f, max %.3f over %d runs",
                     times[times.count / 2], times.first!, times.last!, runs))
    }

    static func appends(in dir: String, count: Int) throws {
        let memeryDir = URL(fileURLWithPath: dir).appendingPathComponent("memery")
        let rawDir = URL(fileURLWithPath: dir).appendingPathComponent("raw")
        try? FileManager.default.removeItem(at: memeryDir)
        try? FileManager.default.removeItem(at: rawDir)

        let store = try EventStore(directory: memeryDir)
        let stream = UUID()
        let payload = Data(#"{"id":"L1","text":"an edit of typical size, a caption being typed"}"#.utf8)
        var latencies = [Double]()
        let memeryStart = DispatchTime.now().uptimeNanoseconds
        for version in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            try store.append(to: stream, expectedVersion: UInt64(version),
                             events: [NewEvent(type: "TextLayerEdited", schemaVersion: 1, payload: payload)])
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        let memerySeconds = Double(DispatchTime.now().uptimeNanoseconds - memeryStart) / 1e9

        let rawSeconds = try rawLMDBAppends(rawDir.path, count: count, valueSize: payload.count + 150)
        latencies.sort()
        let memeryRate = Double(count) / memerySeconds, rawRate = Double(count) / rawSeconds
        print(String(format: "durable single-event appends: memery %.0f/s (p50 %.2f ms, p99 %.2f ms), raw LMDB put+commit %.0f/s; ratio memery/raw %.2f",
                     memeryRate, latencies[count / 2], latencies[count * 99 / 100], rawRate, memeryRate / rawRate))
    }

    /// The ceiling: one put of a value of the same size and one synced commit per append.
    static func rawLMDBAppends(_ path: String, count: Int, valueSize: Int) throws -> Double {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var env: OpaquePointer?
        mdb_env_create(&env)
        defer { mdb_env_close(env) }
        mdb_env_set_mapsize(env, 1 << 30)
        guard mdb_env_open(env, path, 0, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
        var value = [UInt8](repeating: 7, count: valueSize)
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count {
            var txn: OpaquePointer?
            mdb_txn_begin(env, nil, 0, &txn)
            var dbi: MDB_dbi = 0
            mdb_dbi_open(txn, nil, 0, &dbi)
            var key = UInt64(index + 1).bigEndian
            try withUnsafeMutableBytes(of: &key) { keyBytes in
                try value.withUnsafeMutableBytes { valueBytes in
                    var k = MDB_val(mv_size: 8, mv_data: keyBytes.baseAddress)
                    var v = MDB_val(mv_size: valueBytes.count, mv_data: valueBytes.baseAddress)
                    guard mdb_put(txn, dbi, &k, &v, UInt32(MDB_APPEND)) == 0 else { throw CocoaError(.fileWriteUnknown) }
                }
            }
            guard mdb_txn_commit(txn) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

extension Int {
    var clamped: Int { Swift.min(255, Swift.max(0, self)) }
}

/// What a preview costs once composed: each encoding of one picture at 1280 px.
enum PreviewBench {
    static func run(_ path: String, runs: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let full = try ImageDecoder().decode(data, source: path).0
        let picture = try full.scaled(toWidth: 1280)
        print("encoding a \(picture.width)x\(picture.height) preview of \(path) (\(runs) runs):")
        for (label, body) in [
            ("PNG, zlib level 6 (exports)", { _ = try ImageEncoder.encode(picture, as: .png) }),
            ("PNG, zlib level 1", { _ = try ImageEncoder.encode(picture, as: .png, pngCompression: 1) }),
            ("JPEG q92", { _ = try ImageEncoder.encode(picture, as: .jpeg, quality: 92) }),
            ("WebP q90", { _ = try ImageEncoder.encode(picture, as: .webp, quality: 90) }),
            ("scale 12 MP to 1280 px", { _ = try full.scaled(toWidth: 1280) }),
        ] as [(String, () throws -> Void)] {
            print("  \(label): \(try Timings(runs: runs, body).milliseconds)")
        }
    }
}
