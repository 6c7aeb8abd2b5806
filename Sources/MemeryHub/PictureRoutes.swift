import Foundation
import HTTPTypes
import Hummingbird
import MemeryHubProtocol
import NIOCore

/// Pictures by their SHA-256: asking which are missing, uploading, downloading (schemas/hub-openapi.yaml).
struct PictureRoutes: Sendable {
    let accounts: Accounts
    let blobs: Blobs

    func add(to router: Router<HubContext>) {
        let members = router.group().add(middleware: SignedInOnly(accounts: accounts))
        members.post(RouterPath(HubPaths.blobs + "/missing")) { request, context -> Response in
            let who = try context.who
            let body = try await JSONBody.decode(BlobList.self, from: request, context: context)
            return JSONBody.response(BlobList(hashes: try await blobs.missing(body.hashes, for: who)))
        }
        members.put(RouterPath(HubPaths.blobs + "/:hash")) { request, context -> Response in
            let who = try context.who
            let hash = context.parameters.get("hash") ?? ""
            let bytes = try await request.body.collect(upTo: Blobs.largest)
            let new = try await blobs.put(hash, bytes, by: who)
            return Response(status: new ? .created : .ok)
        }
        members.get(RouterPath(HubPaths.blobs + "/:hash")) { request, context -> Response in
            let who = try context.who
            let hash = context.parameters.get("hash") ?? ""
            // A picture never changes under its hash: a device may keep it for good.
            return JSONBody.bytes(try await blobs.get(hash, for: who), type: "application/octet-stream", cache: "private, max-age=31536000, immutable")
        }
    }
}
