import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// The real HTTP transport, with a log of every operation and the status it got, so live
/// tests can see whether a refresh came before a request or after a 401.
actor RecordingTransport: ClientTransport {
    /// One request and its status.
    struct Exchange: Equatable, Sendable {
        let operationID: String
        let status: Int
    }

    /// Every exchange, in the order answered.
    private(set) var log: [Exchange] = []
    private let base = AsyncHTTPClientTransport()

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
        log.append(Exchange(operationID: operationID, status: response.status.code))
        return (response, responseBody)
    }
}
