// swift-tools-version:6.1
import PackageDescription

// Modules of packages several targets import directly.
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
// The static Swift runtime links executables with -export-dynamic: every one of memery's
// 51,797 symbols went into the dynamic table, for the loader to hash and the runtime's
// start-up dladdr to walk. Nothing looks a symbol up in the executable (plugins are handed
// a table, `memery_filter.h`), so they stay out: `memery --version` runs 5% fewer
// instructions (docs/benchmarks-history.md, 2026-12-04). The executable stays
// position-independent: non-PIE started in 0.78 of the time, but without address
// randomisation for the code of a server that reads what strangers send.
let startsFast = LinkerSetting.unsafeFlags(["-Xlinker", "--no-export-dynamic"])

let package = Package(
    name: "Memery",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Memery", targets: ["Memery"]),
        .executable(name: "memery", targets: ["memery"]),
        .executable(name: "memery-helper", targets: ["memery-helper"]),
        // The built-in filters, a plugin like any other: libmemery-builtins.so beside memery.
        .library(name: "memery-builtins", type: .dynamic, targets: ["MemeryBuiltinFilters"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        // The local web editor's HTTP server; no traits: swift-configuration is not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        // The hub: passwords (bcrypt), PostgreSQL, metrics; and the client's HTTP.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        // The hub's read timeout sees the request's parts as Hummingbird's HTTP/1 channel hands them on.
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        // The hub's background work (the picture sweep) runs beside its server as a Service.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        // Named here because targets import their modules directly (scripts/check-imports):
        // NIO's buffers and event loops, HTTP's field types, the metrics API.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
    ],
    targets: [
        // System-library shims: module maps over pkg-config.
        .systemLibrary(name: "CLMDB", pkgConfig: "lmdb",
                       providers: [.apt(["liblmdb-dev"])]),
        .systemLibrary(name: "CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0",
                       providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        // memfd_create, to hand decoded pixels from the helper process without a copy.
        .systemLibrary(name: "CSharedMemory"),
        // Animations: giflib, and libwebp's demux and mux (linked by name: their pkg-config asks for -pthread, which SwiftPM refuses).
        .systemLibrary(name: "CGif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),

        // The plugin C ABI: memery_filter.h is the only file plugin authors need.
        .target(name: "MemeryPluginABI"),
        // Plain C, but SwiftPM links it with swiftc, which would make it need the Swift runtime
        // from the toolchain's folder, and an installed memery has neither: no Swift start-up
        // object (-nostartfiles), the runtime's archive (from which nothing is taken), no toolchain run path.
        .target(name: "MemeryBuiltinFilters", dependencies: ["MemeryPluginABI"], path: "Plugins/builtins",
                linkerSettings: [.linkedLibrary("m"), .unsafeFlags(["-nostartfiles", "-static-stdlib", "-no-toolchain-stdlib-rpath"])]),

        // JPEG written straight from Cairo's pixels with libjpeg-turbo (C: libjpeg reports errors by longjmp).
        .target(name: "MemeryJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // Guard pages around the pixels a third-party filter gets, and a fault handler that says where it went.
        .target(name: "MemeryGuardPages"),
        // Warm helpers' plumbing: jobs as messages carrying descriptors, helpers started with a socket.
        .target(name: "MemeryHelperIPC"),

        // LMDB: environment, transactions, event log, streams, blobs. Knows no memes.
        // The one lock type of the targets that share state between threads.
        .target(name: "MemeryLocks"),
        // CRC32C, each event record's checksum from store format 3: the processor's instruction, else a table.
        .target(name: "MemeryCRC32C"),
        .target(name: "MemeryStore", dependencies: [
            "CLMDB", "MemeryLocks", "MemeryCRC32C", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The domain, pure Swift, no I/O.
        .target(name: "MemeryCore"),
        // Pixels: decode/encode (gdk-pixbuf; giflib and libwebp for animations), compose (Cairo), text (Pango).
        // Pixels without drawing: a raster, the decoders, the filter host and the helpers' side
        // of both. No Cairo or Pango, so that memery-helper, built on it alone, starts fast.
        .target(name: "MemeryPixels", dependencies: ["MemeryCore", "MemeryLocks", "CGdkPixbuf", "CGif", "CWebP", "CZlib", "CSharedMemory", "MemeryJPEG", "MemeryPluginABI", "MemeryGuardPages", "MemeryHelperIPC"]),
        // Drawing: composing (Cairo), text (Pango), shapes, emoji, fonts, the decoded-picture cache; over MemeryPixels.
        .target(name: "MemeryRender", dependencies: ["MemeryPixels", "MemeryCore", "MemeryLocks", "CGdkPixbuf", "CPangoCairo", "CGif", "CWebP", "CZlib", "CSharedMemory", "MemeryJPEG", "MemeryPluginABI", "MemeryGuardPages", "MemeryHelperIPC"]),
        // The facade: a Workspace joins store + core + render.
        .target(name: "Memery", dependencies: ["MemeryStore", "MemeryCore", "MemeryRender", "MemeryLocks"],
                resources: [.copy("Stickers")],  // the bundled stickers (CC0, scripts/make-stickers)
                swiftSettings: [.enableUpcomingFeature("InternalImportsByDefault")]),
        // `memery serve`: the HTTP API and the editor's files, on the facade alone.
        .target(name: "MemeryServer", dependencies: [
            "Memery", "MemeryHubClient", "MemeryWeb", "MemeryLocks", "MemeryHTTP", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"), httpTypes, nioCore,
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], resources: [.copy("Editor")],
        swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), .enableUpcomingFeature("InternalImportsByDefault")]),
        // What both servers share of HTTP: saying why one cannot listen, answering by entity tag.
        .target(name: "MemeryHTTP", dependencies: [httpTypes, nioCore]),
        // What the hub and its clients say to each other: the JSON bodies of the sync protocol.
        .target(name: "MemeryHubProtocol", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // `memery hub`: accounts, sync, recommendations, search and shares on PostgreSQL. Stateless.
        .target(name: "MemeryHub", dependencies: [
            // MemeryCore: the engine's own decoders judge what a push may store (EventAdmission).
            "MemeryHubProtocol", "MemeryCore", "MemeryHTTP",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            httpTypes, nioCore, .product(name: "NIOPosix", package: "swift-nio"), .product(name: "Metrics", package: "swift-metrics"),
        ], swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), .enableUpcomingFeature("InternalImportsByDefault")]),
        // The editor on a hub: each signed-in person's working copy, and the pages over it.
        .target(name: "MemeryHubEditor", dependencies: [
            "Memery", "MemeryHub", "MemeryHubClient", "MemeryServer", "MemeryLocks", "MemeryHTTP", .product(name: "Hummingbird", package: "hummingbird"), httpTypes, nioCore,
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), .enableUpcomingFeature("InternalImportsByDefault")]),
        // A store's side of the hub: logging in, and syncing through the facade.
        .target(name: "MemeryHubClient", dependencies: [
            "Memery", "MemeryCore", "MemeryHubProtocol", "MemeryLocks",
            .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "Crypto", package: "swift-crypto"), nioCore, nioHTTP1,
        ], swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), .enableUpcomingFeature("InternalImportsByDefault")]),
        // Pictures from the web: a link downloaded within limits, its host checked before connecting.
        .target(name: "MemeryWeb", dependencies: [
            "MemeryCore", .product(name: "AsyncHTTPClient", package: "async-http-client"), nioCore, nioHTTP1,
        ], swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // The command-line tool.
        // Front ends see only the facade: MemberImportVisibility makes reaching past it an
        // error, and InternalImportsByDefault keeps what the tool imports its own.
        .executableTarget(name: "memery", dependencies: [
            "Memery", "MemeryServer", "MemeryHub", "MemeryHubEditor", "MemeryHubClient", "MemeryWeb", "MemeryHTTP", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), .enableUpcomingFeature("InternalImportsByDefault")],
        linkerSettings: [startsFast]),

        // The helper processes' executable: decoding and isolated filters, without the store,
        // the servers or the hub, so that it starts fast (HelperProcess.helperBinary).
        .executableTarget(name: "memery-helper", dependencies: ["MemeryPixels"], linkerSettings: [startsFast]),
        // `make crashtest`: kill -9 a streaming `memery apply` at random moments and at fail points.
        .executableTarget(name: "memery-crashtest", dependencies: ["Memery", "MemeryStore", "MemeryCore"]),
        // `make fuzz`: libFuzzer targets (built with -sanitize=fuzzer -D FUZZING); built as
        // usual they replay a corpus, which the tests do with every kept regression.
        .target(name: "MemeryFuzzSupport"),
        .executableTarget(name: "memery-fuzz-image", dependencies: ["MemeryRender", "MemeryFuzzSupport"]),
        .executableTarget(name: "memery-fuzz-import", dependencies: ["Memery", "MemeryRender", "MemeryFuzzSupport"]),
        .executableTarget(name: "memery-fuzz-events", dependencies: ["MemeryStore", "MemeryCore", "MemeryFuzzSupport"]),
        // A hub's pull pages, hostile, through what `memery sync` does with them.
        .executableTarget(name: "memery-fuzz-pull", dependencies: ["Memery", "MemeryHubClient", "MemeryHubProtocol", "MemeryFuzzSupport"]),
        // Measurements for `make bench`, beside their peers.
        .executableTarget(name: "memery-bench", dependencies: ["Memery", "MemeryStore", "MemeryRender", "MemeryCore", "CLMDB"]),
        // `make bench-hub`: simulated machines pushing and pulling through hubs (scripts/bench-hub).
        .executableTarget(name: "memery-bench-hub", dependencies: [
            "MemeryHubProtocol", .product(name: "AsyncHTTPClient", package: "async-http-client"), nioCore, nioHTTP1,
        ]),

        // Paths to test data and generated inputs, shared by the test targets.
        .target(name: "MemeryTestSupport", dependencies: ["MemeryRender", .product(name: "Logging", package: "swift-log")], path: "Tests/MemeryTestSupport"),
        .testTarget(name: "MemeryStoreTests", dependencies: ["MemeryStore", "MemeryCRC32C", "MemeryTestSupport"]),
        .testTarget(name: "MemeryCoreTests", dependencies: ["MemeryCore", "MemeryTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "MemeryRenderTests", dependencies: ["MemeryRender", "MemeryPixels", "MemeryLocks", "MemeryCore", "CPangoCairo", "MemeryTestSupport"], exclude: ["Golden", "Plugins"]),
        .testTarget(name: "MemeryTests", dependencies: ["Memery", "MemeryStore", "MemeryCore", "MemeryRender", "MemeryPixels", "MemeryLocks", "MemeryTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "MemeryWebTests", dependencies: [
            "MemeryWeb", .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        .testTarget(name: "MemeryServerTests", dependencies: [
            "MemeryServer", "Memery", "MemeryTestSupport", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "Logging", package: "swift-log"), httpTypes, nioCore]),
        .testTarget(name: "MemeryHubTests", dependencies: [
            "MemeryHub", "MemeryHubProtocol", "MemeryTestSupport", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
            .product(name: "Prometheus", package: "swift-prometheus"), .product(name: "PostgresNIO", package: "postgres-nio"), httpTypes, nioCore]),
        .testTarget(name: "MemeryHubEditorTests", dependencies: ["MemeryHubEditor", .product(name: "Hummingbird", package: "hummingbird"), httpTypes, nioCore]),
        .testTarget(name: "MemeryCLITests", dependencies: ["Memery", "MemeryCore", "MemeryRender", "MemeryTestSupport", "MemeryHubProtocol",
                                                         .product(name: "Crypto", package: "swift-crypto")]),
    ],
    swiftLanguageModes: [.v6]
)
