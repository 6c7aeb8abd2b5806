import Foundation
import MemeryPixels

// The helper processes' executable: decoding pictures from outside and running isolated
// filters (`memery-helper __image-worker ...`, `memery-helper __plugin-worker ...`, the same
// hidden modes `memery` has). It links MemeryPixels and nothing else — no drawing (Cairo,
// Pango, fonts, X), no store, no servers, no hub: 14 shared libraries instead of memery's 48,
// so it starts in about two thirds of the time it took when it linked the whole renderer,
// which is what a one-shot command pays for every picture it imports
// (docs/benchmarks-history.md, 2026-12-01).
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case WarmHelpers.Kind.decoding.rawValue: exit(ImageWorker.main(Array(arguments.dropFirst())))
case WarmHelpers.Kind.plugins.rawValue: exit(PluginWorker.main(Array(arguments.dropFirst())))
default:
    FileHandle.standardError.write(Data("memery-helper is started by memery, not by hand: it decodes pictures and runs filters for it\n".utf8))
    exit(2)
}
