import Foundation
import MemeryRender

// The helper processes' executable: decoding pictures from outside and running isolated
// filters (`memery-helper __image-worker ...`, `memery-helper __plugin-worker ...`, the same
// hidden modes `memery` has). It links the rendering engine and nothing else — no store, no
// servers, no hub — so it starts in about two thirds of the whole `memery`'s time, which is
// what a one-shot command pays for every picture it imports (docs/benchmarks.md).
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case WarmHelpers.Kind.decoding.rawValue: exit(ImageWorker.main(Array(arguments.dropFirst())))
case WarmHelpers.Kind.plugins.rawValue: exit(PluginWorker.main(Array(arguments.dropFirst())))
default:
    FileHandle.standardError.write(Data("memery-helper is started by memery, not by hand: it decodes pictures and runs filters for it\n".utf8))
    exit(2)
}
