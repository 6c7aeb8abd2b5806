import Foundation
import Testing

@Suite(.enabled(if: Paths.sharedAvailable, "../shared/testdata is absent: the edge-file imports need its images"))
struct ImportEdgeFilesTests {
    static let importable = [
        "1_trns.png", "hopper.avif", "hopper.bmp", "hopper.gif", "hopper.jpg", "hopper.png", "hopper.tif",
        "hopper.webp", "hopper_gray.jpg", "hopper_orientation_3.jpg", "hopper_orientation_6.jpg",
        "hopper_orientation_8.jpg", "mode_16bit.png", "mode_palette_alpha.png", "pil_sample_cmyk.jpg",
    ]
    static let refused = [
        "broken.png": "is a damaged PNG image",
        "broken_data_stream.png": "is a damaged PNG image",
        "truncated_jpeg.jpg": "is a damaged JPEG image",
        "decompression_bomb.gif": "declares 65535x66601 pixels: a side longer than 32767 pixels",
    ]

    @Test func everyEdgeFileEitherImportsOrFailsWithExitOneAndTheStoreUnchanged() throws {
        let s = try Sandbox()
        let all = try FileManager.default.contentsOfDirectory(atPath: Paths.shared.appendingPathComponent("edge").path).sorted()
        #expect(Set(all) == Set(Self.importable + Self.refused.keys), "the edge folder changed: sort its files into the lists")
        for file in all {
            let before = try s.counts()
            let outcome = try s.run(["new", "edge \(file)", "--image", Paths.edge(file)])
            #expect(!outcome.signaled, "\(file): \(outcome)")
            if let message = Self.refused[file] {
                #expect(outcome.status == 1, "\(file): \(outcome)")
                // Named by the path as given, so the user can find it.
                #expect(outcome.stderr.hasPrefix("error: \(Paths.edge(file)) \(message)"), "\(file): \(outcome)")
                #expect(try s.counts() == before, "\(file) changed the store")
            } else {
                #expect(outcome.status == 0, "\(file): \(outcome)")
                try s.ok(["export", "edge \(file)", "-o", s.path("\(file).png")])
            }
        }
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
    }

    @Test func decompressionBombIsRefusedWithoutALargeAllocation() throws {
        let s = try Sandbox()
        let bomb = s.path("bomb.png")
        try pngDeclaring(width: 30_000, height: 30_000).write(to: URL(fileURLWithPath: bomb))
        try s.fails(["new", "b", "--image", bomb], containing: "bomb.png declares 30000x30000 pixels (900 megapixels), over the limit of 100 megapixels")
        try s.fails(["new", "g", "--image", Paths.edge("decompression_bomb.gif")], containing: "decompression_bomb.gif declares 65535x66601 pixels: a side longer than 32767")
        // Each run, its helper included, stayed far below the 3.6 GB a decoded 30000x30000
        // image needs (measured per run: other tests' children run alongside).
        for (name, picture) in [("b2", bomb), ("g2", Paths.edge("decompression_bomb.gif"))] {
            let peak = try Self.peakKilobytes([Paths.memery, "new", name, "--image", picture, "--store", s.store])
            #expect(peak < 512 * 1024, "memery new \(picture) peaked at \(peak) KiB")
        }
    }

    /// The peak resident memory of one run of `arguments`, its children included (wait4's
    /// figure), spawned from python3 so that nothing of this process is counted.
    static func peakKilobytes(_ arguments: [String]) throws -> Int {
        let script = "import os,sys; pid=os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=[(os.POSIX_SPAWN_OPEN,2,os.devnull,os.O_WRONLY,0)]); print(os.wait4(pid,0)[2].ru_maxrss)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return try #require(Int(printed.trimmingCharacters(in: .whitespacesAndNewlines)), "python3 printed \(printed)")
    }

    @Test func pixelLimitComesFromTheEnvironment() throws {
        let s = try Sandbox()
        let outcome = try s.run(["new", "small", "--image", Paths.example], environment: ["MEMERY_MAX_MEGAPIXELS": "0.1"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("chelsea.png declares 451x300 pixels"))
    }

    @Test func aFileLargerThanAnyPictureWithinTheLimitIsNotRead() throws {
        let s = try Sandbox()
        let huge = s.path("huge.png")
        FileManager.default.createFile(atPath: huge, contents: Data(pngDeclaring(width: 100, height: 100)))
        let handle = try #require(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: 100 << 20)  // sparse: nothing is written
        try handle.close()
        try s.fails(["new", "h", "--image", huge], containing: "huge.png is 100 MB, larger than any picture within the pixel limit can be (71 MB), so it was not read",
                    environment: ["MEMERY_MAX_MEGAPIXELS": "1"])
    }

    @Test func brokenFilesMadeHereAreRefusedToo() throws {
        let s = try Sandbox()
        let png = try Data(contentsOf: URL(fileURLWithPath: Paths.example))
        let cases: [(String, Data, String)] = [
            ("zero.png", Data(), "zero.png is empty (0 bytes)"),
            ("text.png", Data("hello\n".utf8), "text.png is text, not a picture: choose a picture"),
            ("page.jpg", Data("<!doctype html><img src=cat.jpg>".utf8), "page.jpg is a web page (HTML), not a picture"),
            ("cut.png", png.prefix(200), "cut.png is a damaged PNG image"),
            ("renamed.jpg", png, ""),  // a PNG named .jpg still imports: the bytes decide
        ]
        for (name, data, message) in cases {
            try data.write(to: URL(fileURLWithPath: s.path(name)))
            if message.isEmpty {
                try s.ok(["new", name, "--image", s.path(name)])
            } else {
                try s.fails(["new", name, "--image", s.path(name)], containing: message)
            }
        }
    }
}

