@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenAPIRuntime
import Testing


/// The generated server's transport: what a handler receives and what the client gets back.
@Suite struct KindredTransportTests {
    /// What the handler saw of one request.
    private actor Seen {
        var method: HTTPRequest.Method?
        var path: String?
        var parameters: [String: Substring] = [:]
        var body: [UInt8]?
        var bodyLength: HTTPBody.Length?

        func record(_ request: HTTPRequest, _ body: HTTPBody?, _ metadata: ServerRequestMetadata) async throws {
            method = request.method
            path = request.path
            parameters = metadata.pathParameters
            bodyLength = body?.length
            if let body { self.body = Array(try await ArraySlice(collecting: body, upTo: 1 << 22)) }
        }
    }

    private func application(
        seen: Seen, response: @escaping @Sendable () -> (HTTPResponse, HTTPBody?)
    ) throws -> some ApplicationProtocol {
        let router = Router(context: KindredRequestContext.self)
        let transport = KindredTransport(router: router)
        for (method, path) in [(HTTPRequest.Method.get, "/items/{itemId}/notes/{noteId}"), (.post, "/items"), (.get, "/big")] {
            try transport.register(
                { request, body, metadata in
                    try await seen.record(request, body, metadata)
                    return response()
                },
                method: method, path: path
            )
        }
        return Application(router: router)
    }

    @Test func pathParametersReachTheHandler() async throws {
        let seen = Seen()
        let app = try application(seen: seen) { (HTTPResponse(status: .ok), HTTPBody("ok")) }
        try await app.test(.router) { client in
            try await client.execute(uri: "/items/42/notes/n-7?x=1", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok")
                #expect(response.headers[.contentLength] == "2")
            }
        }
        #expect(await seen.parameters == ["itemId": "42", "noteId": "n-7"])
        #expect(await seen.path == "/items/42/notes/n-7?x=1")
        // A request without Content-Length or Transfer-Encoding has an empty body of known length.
        #expect(await seen.body == [])
        #expect(await seen.bodyLength == .known(0))
    }

    @Test func requestBodyArrivesWhole() async throws {
        let seen = Seen()
        let app = try application(seen: seen) { (HTTPResponse(status: .created), nil) }
        let payload = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try await app.test(.router) { client in
            try await client.execute(uri: "/items", method: .post, body: ByteBuffer(bytes: payload)) { response in
                #expect(response.status == .created)
                #expect(response.body.readableBytes == 0)
            }
        }
        #expect(await seen.method == .post)
        #expect(await seen.parameters.isEmpty)
        #expect(await seen.body == payload)
        #expect(await seen.bodyLength == .known(Int64(payload.count)))
    }

    @Test func responsesOfEverySizeArriveIntact() async throws {
        // Below the one-buffer limit, above it (streamed with its length), and of unknown length.
        let small = Array("{\"a\":1}".utf8)
        let large = (0..<(KindredTransport.collectedResponseLimit + 12_345)).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let cases: [([UInt8], Bool)] = [(small, true), (large, true), (large, false)]
        for (bytes, knownLength) in cases {
            let seen = Seen()
            let app = try application(seen: seen) {
                var response = HTTPResponse(status: .ok)
                response.headerFields[.contentType] = "application/octet-stream"
                let chunks = stride(from: 0, to: bytes.count, by: 100_000).map { ArraySlice(bytes[$0..<min($0 + 100_000, bytes.count)]) }
                let body = HTTPBody(
                    chunks.async, length: knownLength ? .known(Int64(bytes.count)) : .unknown, iterationBehavior: .single
                )
                return (response, body)
            }
            try await app.test(.router) { client in
                try await client.execute(uri: "/big", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/octet-stream")
                    #expect(Array(buffer: response.body) == bytes)
                    if knownLength { #expect(response.headers[.contentLength] == String(bytes.count)) }
                }
            }
        }
    }
}

extension Array where Element: Sendable {
    /// The elements as an async sequence (for a streamed test body).
    fileprivate var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
