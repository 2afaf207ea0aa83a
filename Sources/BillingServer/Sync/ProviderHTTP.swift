import KindredServerCore
import AsyncHTTPClient
import Foundation
import NIOCore

/// The HTTP calls of the provider clients: bearer-authenticated requests with a timeout,
/// answering the status and the body.
struct ProviderHTTP: Sendable {
    let client: HTTPClient
    let provider: BillingProvider
    /// The longest a call may take.
    var timeout: TimeAmount = .seconds(15)
    /// The largest answer read.
    var maxBody = 4 << 20

    /// The methods the providers' APIs are called with.
    enum Verb {
        case get
        case post
    }

    /// Sends a request.
    /// - Parameters:
    ///   - method: GET or POST.
    ///   - url: the full URL.
    ///   - bearer: the secret key.
    ///   - form: an `application/x-www-form-urlencoded` body (POST).
    /// - Returns: the status code and the body.
    /// - Throws: `BillingProviderError.unreachable`.
    func send(_ verb: Verb, _ url: String, bearer: String, form: [(String, String)]? = nil) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: url)
        switch verb {
        case .get: request.method = .GET
        case .post: request.method = .POST
        }
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "Accept", value: "application/json")
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: Self.formEncode(form)))
        }
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = Data(try await response.body.collect(upTo: maxBody).readableBytesView)
            ProviderResponseLog.current?.record(
                method: verb == .get ? "GET" : "POST", url: url, status: Int(response.status.code), body: body
            )
            return (Int(response.status.code), body)
        } catch {
            throw BillingProviderError.unreachable(provider, "\(type(of: error))")
        }
    }

    /// Form-encodes pairs (RFC 3986 unreserved characters kept, everything else percent-encoded).
    static func formEncode(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return pairs.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// Percent-encodes one path segment.
    static func pathSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A short, secret-free excerpt of an error body.
    static func excerpt(_ data: Data) -> String {
        String(decoding: data.prefix(200), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
    }
}
