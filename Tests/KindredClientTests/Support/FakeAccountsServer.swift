import Foundation
import HTTPTypes
import KindredClient
import OpenAPIRuntime

/// A scripted accounts server behind the `ClientTransport` seam: it issues, checks, rotates
/// and revokes tokens like the real one, and logs every exchange for the tests to assert on.
actor FakeAccountsServer: ClientTransport {
    /// One request and the status it got.
    struct Exchange: Equatable, Sendable {
        let operationID: String
        let app: String?
        let authorization: String?
        let status: Int
    }

    /// Every request, in the order answered.
    private(set) var log: [Exchange] = []
    /// How long a refresh takes, so concurrent requests overlap it.
    var refreshDelay: Duration = .zero
    /// The `expiresIn` of every issued session.
    var expiresIn = 900
    /// The account's `createdAt`, as the server writes it.
    private var createdAt = "2026-01-02T03:04:05Z"

    private var liveAccessTokens: Set<String> = []
    private var expiredAccessTokens: Set<String> = []
    private var refreshTokens: Set<String> = []
    /// The code every refresh gets once the session is revoked.
    private var refreshRefusal: String?
    private var issued = 0

    /// The operation ids in the log, in order.
    var operations: [String] { log.map(\.operationID) }

    /// How many refreshes were asked for.
    var refreshCount: Int { log.filter { $0.operationID == "refreshSession" }.count }

    /// Whether every access token, even a fresh one, gets 401 `invalid_token`.
    private var rejectsEveryAccessToken = false

    /// Sets how `createdAt` is written.
    func setCreatedAt(_ text: String) { createdAt = text }

    /// Sets how long a refresh takes.
    func setRefreshDelay(_ delay: Duration) { refreshDelay = delay }

    /// From now on every access token gets 401 `invalid_token`, refreshed or not.
    func rejectEveryAccessToken() { rejectsEveryAccessToken = true }

    /// Every access token issued so far now gets 401 `token_expired`.
    func expireAccessTokens() {
        expiredAccessTokens.formUnion(liveAccessTokens)
        liveAccessTokens.removeAll()
    }

    /// Revokes the session: access tokens get `session_revoked`, refreshes get `refusal`.
    func revoke(refusal: String) {
        liveAccessTokens.removeAll()
        expiredAccessTokens.removeAll()
        refreshTokens.removeAll()
        refreshRefusal = refusal
    }

    /// Issues a pair the test can put in a store directly.
    func issuePair() -> (access: String, refresh: String) {
        issued += 1
        let pair = ("access-\(issued)", "refresh-\(issued)")
        liveAccessTokens.insert(pair.0)
        refreshTokens.insert(pair.1)
        return pair
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var requestBody: Data?
        if let body { requestBody = try await Data(collecting: body, upTo: 1 << 20) }
        let authorization = request.headerFields[.authorization]
        let (status, json) = try await answer(operationID, authorization: authorization, body: requestBody)
        log.append(Exchange(
            operationID: operationID, app: request.headerFields[HTTPField.Name("X-Kindred-App")!],
            authorization: authorization, status: status
        ))
        var response = HTTPResponse(status: .init(code: status))
        guard let json else { return (response, nil) }
        response.headerFields[HTTPField.Name.contentType] = "application/json"
        return (response, HTTPBody(json))
    }

    private func answer(_ operationID: String, authorization: String?, body: Data?) async throws -> (Int, String?) {
        switch operationID {
        case "signUpAnonymously":
            return (201, sessionJSON())
        case "logInWithPassword":
            let fields = try JSONSerialization.jsonObject(with: body ?? Data()) as? [String: String]
            guard fields?["password"] == "correct horse" else { return Self.error(401, "invalid_credentials") }
            return (200, sessionJSON())
        case "refreshSession":
            if refreshDelay > .zero { try await Task.sleep(for: refreshDelay) }
            let fields = try JSONSerialization.jsonObject(with: body ?? Data()) as? [String: String]
            guard let token = fields?["refreshToken"], refreshTokens.remove(token) != nil else {
                return Self.error(401, refreshRefusal ?? "invalid_refresh_token")
            }
            return (200, sessionJSON())
        case "getMe":
            if let failure = check(authorization) { return failure }
            return (200, userJSON)
        case "logOut":
            if let failure = check(authorization) { return failure }
            revoke(refusal: "invalid_refresh_token")
            return (204, nil)
        default:
            return Self.error(404, "not_found")
        }
    }

    /// The 401 for a bearer header that is not a live token, or `nil` for a live one.
    private func check(_ authorization: String?) -> (Int, String?)? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return Self.error(401, "missing_token") }
        let token = String(authorization.dropFirst("Bearer ".count))
        if rejectsEveryAccessToken { return Self.error(401, "invalid_token") }
        if liveAccessTokens.contains(token) { return nil }
        if expiredAccessTokens.contains(token) { return Self.error(401, "token_expired") }
        return Self.error(401, refreshRefusal == nil ? "invalid_token" : "session_revoked")
    }

    private func sessionJSON() -> String {
        let (access, refresh) = issuePair()
        return """
            {"accessToken":"\(access)","refreshToken":"\(refresh)","tokenType":"Bearer","expiresIn":\(expiresIn),\
            "isNewUser":true,"user":\(userJSON)}
            """
    }

    static let userID = "0b4e7c0e-8d1a-4f5e-9a51-6a1f2d3c4b5a"

    private var userJSON: String {
        #"{"id":"\#(Self.userID)","app":"closer","isAnonymous":true,"providers":[],"createdAt":"\#(createdAt)"}"#
    }

    private static func error(_ status: Int, _ code: String) -> (Int, String?) {
        (status, #"{"error":{"code":"\#(code)","message":"scripted \#(code)"}}"#)
    }
}
