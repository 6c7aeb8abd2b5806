import Foundation
import MemeryRender
import Testing

/// Where Memery looks for its own files and for plugins, in a build folder and installed.
@Suite struct InstallLayoutTests {
    @Test func pluginFoldersAreSearchedInTheDocumentedOrderEachOnce() {
        let folders = FilterHost.userPluginDirectories(
            environment: ["MEMERY_PLUGIN_PATH": "/a:/b:", "HOME": "/home/u", "MEMERY_STORE": "/srv/memes"],
            system: "/usr/lib/memery/plugins")
        #expect(folders == ["/a", "/b", "/home/u/.local/share/memery/plugins", "/srv/memes/plugins", "/usr/lib/memery/plugins"])
        // The default store is the XDG folder: its plugins folder is not searched twice.
        let same = FilterHost.userPluginDirectories(
            environment: ["XDG_DATA_HOME": "/x", "MEMERY_STORE": "/x/memery/"], system: nil)
        #expect(same == ["/x/memery/plugins"])
    }

    @Test func theBuiltInsAreFoundBesideTheBuiltBinary() throws {
        // The tests run from the build folder, where SwiftPM puts libmemery-builtins.so.
        let directory = try #require(InstallLayout.builtinDirectory)
        #expect(directory == InstallLayout.executableDirectory())
        #expect(FileManager.default.fileExists(atPath: directory + "/" + FilterHost.builtinLibraryName))
        #expect(InstallLayout.systemPluginDirectory == nil, "a build folder is not PREFIX/bin")
    }
}
