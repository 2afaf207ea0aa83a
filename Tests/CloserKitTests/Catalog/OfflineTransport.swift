import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport for a phone without network: every request fails at once, as a refused
/// connection does (without AsyncHTTPClient's retries until the request's deadline).
struct OfflineTransport: ClientTransport {
    /// The failure every request gets.
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "the network is unreachable" }
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        throw Unreachable()
    }
}
