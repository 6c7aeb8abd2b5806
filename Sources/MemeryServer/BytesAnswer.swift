import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// An answer of bytes of one type (a picture, an editor file, JSON), with how long it may be
/// kept; `headers` adds the rest (an ETag, a download's file name).
enum BytesAnswer {
    static func response(_ data: Data, type: String, cache: String, status: HTTPResponse.Status = .ok,
                         headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = type
        fields[.cacheControl] = fields[.cacheControl] ?? cache
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
