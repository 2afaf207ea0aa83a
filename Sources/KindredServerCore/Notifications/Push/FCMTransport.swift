import AsyncHTTPClient
import Foundation
import KindredStore
import Logging
import NIOCore
import _CryptoExtras

/// The service account and endpoints of one app's FCM HTTP v1 connection.
public struct FCMConfiguration: Sendable {
    /// The Firebase project id.
    public var projectID: String
    /// The service account's e-mail (`iss` of the assertion).
    public var clientEmail: String
    /// The service account's RSA key.
    public var privateKey: _RSA.Signing.PrivateKey
    /// Google's OAuth token endpoint (`token_uri` of the service-account file).
    public var tokenURI: String
    /// The FCM API base URL.
    public var apiBaseURL: String = "https://fcm.googleapis.com"

    /// Reads a service-account JSON file's fields (`project_id`, `client_email`, `private_key`,
    /// `token_uri`).
    /// - Throws: when a field is missing or the key is not an RSA private key.
    public init(serviceAccountJSON: Data) throws {
        struct File: Decodable {
            var project_id: String
            var client_email: String
            var private_key: String
            var token_uri: String?
        }
        let file = try JSONDecoder().decode(File.self, from: serviceAccountJSON)
        projectID = file.project_id
        clientEmail = file.client_email
        privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: file.private_key)
        tokenURI = file.token_uri ?? "https://oauth2.googleapis.com/token"
    }
}

/// Sends messages through FCM HTTP v1: a service-account RS256 assertion is exchanged for an
/// OAuth access token, which is cached until a minute before it expires.
public actor FCMTransport: PushTransport {
    private let configuration: FCMConfiguration
    private let client: HTTPClient
    private let clock: any WallClock
    private let logger: Logger
    private var accessToken: (token: String, expiresAt: Date)?

    /// Creates the transport.
    public init(configuration: FCMConfiguration, client: HTTPClient, clock: any WallClock, logger: Logger) {
        self.configuration = configuration
        self.client = client
        self.clock = clock
        self.logger = logger
    }

    /// Why the OAuth exchange failed.
    struct TokenFailure: Error {
        var status: Int
        var reason: String
    }

    /// A cached or newly exchanged OAuth access token.
    func currentAccessToken() async throws -> String {
        let now = clock.now()
        if let accessToken, now < accessToken.expiresAt { return accessToken.token }
        let issuedAt = Int(now.timeIntervalSince1970)
        let assertion = try CompactJWS.rs256(
            header: ["alg": "RS256", "typ": "JWT"],
            claims: [
                "iss": configuration.clientEmail, "scope": "https://www.googleapis.com/auth/firebase.messaging",
                "aud": configuration.tokenURI, "iat": issuedAt, "exp": issuedAt + 3600,
            ],
            key: configuration.privateKey
        )
        var request = HTTPClientRequest(url: configuration.tokenURI)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        request.body = .bytes(ByteBuffer(string: form))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 64 * 1024)
        guard response.status.code == 200 else {
            throw TokenFailure(status: Int(response.status.code), reason: String(buffer: body).prefix(200).description)
        }
        struct Answer: Decodable {
            var access_token: String
            var expires_in: Int
        }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: body))
        accessToken = (answer.access_token, now.addingTimeInterval(TimeInterval(max(0, answer.expires_in - 60))))
        return answer.access_token
    }

    /// Sends one message.
    public func send(_ message: PushMessage, to device: PushDevice) async -> PushResult {
        await send(message, to: device, retryingAuth: true)
    }

    private func send(_ message: PushMessage, to device: PushDevice, retryingAuth: Bool) async -> PushResult {
        let token: String
        do {
            token = try await currentAccessToken()
        } catch let failure as TokenFailure {
            return failure.status >= 500 || failure.status == 429
                ? .retry(reason: "FCM OAuth \(failure.status)", retryAfter: nil)
                : .failed(reason: "FCM OAuth refused the service account: \(failure.status) \(failure.reason)")
        } catch {
            return .retry(reason: "FCM OAuth unreachable: \(error)", retryAfter: nil)
        }
        var request = HTTPClientRequest(url: "\(configuration.apiBaseURL)/v1/projects/\(configuration.projectID)/messages:send")
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer \(token)")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: Self.payload(message, token: device.token, now: clock.now())))
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024)
            let error = Self.errorCode(Data(buffer: body))
            switch response.status.code {
            case 200:
                let name = (try? JSONDecoder().decode([String: String].self, from: Data(buffer: body)))?["name"]
                return .accepted(providerID: name ?? message.id)
            case 401 where retryingAuth:
                accessToken = nil
                return await send(message, to: device, retryingAuth: false)
            case _ where error == "UNREGISTERED" || error == "SENDER_ID_MISMATCH":
                return .invalidToken(reason: error ?? "UNREGISTERED")
            case 429, 500...599:
                let seconds = response.headers.first(name: "retry-after").flatMap(Int.init)
                return .retry(reason: "FCM \(response.status.code) \(error ?? "")", retryAfter: seconds.map { .seconds($0) })
            default:
                return .failed(reason: "FCM \(response.status.code) \(error ?? "")")
            }
        } catch {
            return .retry(reason: "FCM unreachable: \(error)", retryAfter: nil)
        }
    }

    /// The `errorCode` of an FCM error's `FcmError` detail, else its `status`.
    static func errorCode(_ body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let error = object["error"] as? [String: Any]
        else { return nil }
        let details = error["details"] as? [[String: Any]] ?? []
        for detail in details {
            if let code = detail["errorCode"] as? String { return code }
        }
        return error["status"] as? String
    }

    /// The v1 `message`: notification, data (with `type`), Android collapse key and TTL, and the
    /// APNs headers for iOS apps that receive through FCM.
    static func payload(_ message: PushMessage, token: String, now: Date) -> [UInt8] {
        var data = message.data
        data["type"] = message.type
        var android: [String: Any] = ["priority": message.highPriority ? "HIGH" : "NORMAL"]
        var apnsHeaders: [String: String] = ["apns-priority": message.highPriority ? "10" : "5"]
        if let collapse = message.collapseID {
            android["collapse_key"] = collapse
            apnsHeaders["apns-collapse-id"] = String(collapse.prefix(64))
        }
        if let expiresAt = message.expiresAt {
            android["ttl"] = "\(max(0, Int(expiresAt.timeIntervalSince(now))))s"
            apnsHeaders["apns-expiration"] = String(Int(expiresAt.timeIntervalSince1970))
        }
        var apns: [String: Any] = ["headers": apnsHeaders]
        if message.mutableContent { apns["payload"] = ["aps": ["mutable-content": 1] as [String: Any]] as [String: Any] }
        let object: [String: Any] = [
            "message": [
                "token": token,
                "notification": ["title": message.title, "body": message.body],
                "data": data,
                "android": android,
                "apns": apns,
            ] as [String: Any],
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map(Array.init) ?? []
    }
}
