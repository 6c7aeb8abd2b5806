import Foundation
import MemeryHubProtocol
import NIOHTTP1

/// A sync's calls as HTTP requests to the hub (`schemas/hub-openapi.yaml`), what a machine's
/// `memery sync` sends: JSON bodies, every answer checked against its checksum by
/// `HubConnection` before it is read.
struct HTTPSyncTransport: SyncTransport {
    let connection: HubConnection
    let traffic = SyncTraffic()

    func push(_ request: PushRequest) async throws -> PushAnswer {
        let body = try JSONEncoder().encode(request)
        let data = try await connection.send(.POST, HubPaths.events, body: body)
        guard let answer = try? JSONDecoder().decode(PushAnswer.self, from: data) else {
            throw HubClientError("the hub's answer to a push is not what this memery understands: is the hub a newer version?")
        }
        // A push the hub could not take (it lacks what it builds on) is sent again: counted then.
        if answer.lacking == nil { traffic.sent(body.count) }
        // Counted down when it brings a pull page, as the pull would have been.
        if answer.pulled != nil { traffic.received(data.count) }
        return answer
    }

    func pull(after cursor: Int64, at event: UUID?, limit: Int) async throws -> PullAnswer {
        let at = event.map { "&at=" + $0.uuidString.lowercased() } ?? ""
        let data = try await connection.send(.GET, HubPaths.events + "?after=\(cursor)&limit=\(limit)" + at)
        traffic.received(data.count)
        guard let page = try? JSONDecoder().decode(PullAnswer.self, from: data) else {
            throw HubClientError("the hub's answer to a pull is not what this memery understands: is the hub a newer version?")
        }
        return page
    }

    func missingPictures(_ hashes: [String]) async throws -> [String] {
        try await connection.json(.POST, HubPaths.blobs + "/missing", BlobList(hashes: hashes), as: BlobList.self).hashes
    }

    func upload(picture hash: String, _ bytes: Data) async throws {
        _ = try await connection.send(.PUT, HubPaths.blobs + "/" + hash, body: bytes, type: "application/octet-stream")
        traffic.sent(bytes.count)
    }

    func picture(_ hash: String) async throws -> Data {
        let bytes = try await connection.send(.GET, HubPaths.blobs + "/" + hash)
        traffic.received(bytes.count)
        return bytes
    }

    func purge(_ creations: [UUID]) async throws -> PurgeAnswer {
        try await connection.json(.POST, HubPaths.purges, PurgeRequest(creations: creations), as: PurgeAnswer.self)
    }
}
