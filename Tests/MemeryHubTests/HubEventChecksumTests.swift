import Foundation
import MemeryHubProtocol
import Testing

/// The checksum is part of the protocol: machines of every version compute it alike. The
/// fast spelling of its UUIDs must give the bytes `uuidString.lowercased()` gave.
@Suite struct HubEventChecksumTests {
    /// Every field length-prefixed (big-endian UInt64) as the protocol's first version wrote it.
    static func reference(_ event: HubEvent) -> [UInt8] {
        var bytes = [UInt8]()
        for text in [event.id.uuidString.lowercased(), event.batch.uuidString.lowercased(), event.stream.uuidString.lowercased(),
                     event.parent?.uuidString.lowercased() ?? "", event.type, String(event.schemaVersion), String(event.time),
                     event.payload, event.blobs.joined(separator: ",")] {
            withUnsafeBytes(of: UInt64(text.utf8.count).bigEndian) { bytes += $0 }
            bytes += Array(text.utf8)
        }
        return bytes
    }

    @Test func theChecksumIsTheSHA256OfTheFieldsAsTheyWereSpelled() throws {
        let ids = [UUID(), UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!,
                   UUID(uuidString: "0A1B2C3D-4E5F-6A7B-8C9D-AEBFC0D1E2F3")!]
        for (n, id) in ids.enumerated() {
            var event = HubEvent(id: id, batch: ids[(n + 1) % ids.count], stream: UUID(), parent: n % 2 == 0 ? nil : ids[(n + 2) % ids.count],
                                 type: "CaptionSet", schemaVersion: n + 1, time: 1_764_000_000_000 + Int64(n),
                                 payload: #"{"text":"café 🐱 \"quoted\""}"#, blobs: n == 3 ? ["ab", "cd"] : [], checksum: "", position: nil)
            let expected = try Self.sha256Hex(Self.reference(event))
            #expect(HubEvent.checksum(of: event) == expected, "event \(n)")
            event.checksum = expected
            #expect(event.isIntact)
            event.payload += " "
            #expect(!event.isIntact, "a changed payload is seen")
        }
    }

    /// SHA-256 by the system's `sha256sum`, so that the reference shares no code with the checksum.
    static func sha256Hex(_ bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
