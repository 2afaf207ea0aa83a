import AsyncHTTPClient
import Crypto
import Foundation
import KindredStore
import Logging
import NIOCore

/// The credentials and endpoints of one app's APNs connection (token-based authentication).
public struct APNsConfiguration: Sendable {
    /// The Apple developer team id (`iss` of the provider token).
    public var teamID: String
    /// The id of the `.p8` signing key (`kid` of the provider token).
    public var keyID: String
    /// The `.p8` key.
    public var privateKey: P256.Signing.PrivateKey
    /// The app's bundle id, sent as `apns-topic`.
    public var topic: String
    /// The production endpoint.
    public var productionURL: String = "https://api.push.apple.com"
    /// The sandbox (development) endpoint.
    public var sandboxURL: String = "https://api.sandbox.push.apple.com"
    /// How long a provider token is reused: Apple refuses refreshing more often than every
    /// 20 minutes and tokens older than 60 minutes (default 50 minutes).
    public var tokenLifetime: Duration = .seconds(50 * 60)

    /// Creates a configuration from the `.p8` file's PEM text.
    /// - Throws: when the PEM is not a P-256 private key, or the lifetime is outside 20–60 minutes.
    public init(teamID: String, keyID: String, privateKeyPEM: String, topic: String) throws {
        self.teamID = teamID
        self.keyID = keyID
        privateKey = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        self.topic = topic
    }
}

/// Sends alerts through APNs over HTTP/2 (AsyncHTTPClient negotiates h2 by ALPN).
///
/// Headers: `authorization: bearer <ES256 provider token>`, `apns-topic`, `apns-push-type:
/// alert`, `apns-priority` (10 or 5), `apns-expiration`, `apns-collapse-id`, and `apns-id` set to
/// the notification's id, so a resend after a crash is the same notification to the phone.
public actor APNsTransport: PushTransport {
    private let configuration: APNsConfiguration
    private let client: HTTPClient
    private let clock: any WallClock
    private let logger: Logger
    private var providerToken: (token: String, issuedAt: Date)?

    /// Creates the transport.
    public init(configuration: APNsConfiguration, client: HTTPClient, clock: any WallClock, logger: Logger) {
        self.configuration = configuration
        self.client = client
        self.clock = clock
        self.logger = logger
    }

    /// The current provider token, minted again once it is `tokenLifetime` old.
    package func currentProviderToken(forceNew: Bool = false) throws -> String {
        let now = clock.now()
        if !forceNew, let providerToken, now.timeIntervalSince(providerToken.issuedAt) < configuration.tokenLifetime.timeInterval {
            return providerToken.token
        }
        let token = try CompactJWS.es256(
            header: ["alg": "ES256", "kid": configuration.keyID],
            claims: ["iss": configuration.teamID, "iat": Int(now.timeIntervalSince1970)],
            key: configuration.privateKey
        )
        providerToken = (token, now)
        return token
    }

    /// Sends one alert.
    public func send(_ message: PushMessage, to device: PushDevice) async -> PushResult {
        await send(message, to: device, retryingExpiredToken: true)
    }

    private func send(_ message: PushMessage, to device: PushDevice, retryingExpiredToken: Bool) async -> PushResult {
        let base = device.apnsEnvironment == "sandbox" ? configuration.sandboxURL : configuration.productionURL
        var request = HTTPClientRequest(url: "\(base)/3/device/\(device.token)")
        request.method = .POST
        do {
            request.headers.add(name: "authorization", value: "bearer \(try currentProviderToken())")
        } catch {
            return .failed(reason: "cannot sign the APNs provider token: \(error)")
        }
        request.headers.add(name: "apns-topic", value: configuration.topic)
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-priority", value: message.highPriority ? "10" : "5")
        request.headers.add(name: "apns-expiration", value: String(Int(message.expiresAt?.timeIntervalSince1970 ?? 0)))
        request.headers.add(name: "apns-id", value: message.id.uppercased())
        if let collapse = message.collapseID { request.headers.add(name: "apns-collapse-id", value: String(collapse.prefix(64))) }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: Self.payload(message)))
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024)
            let reason = (try? JSONDecoder().decode([String: String].self, from: Data(buffer: body)))?["reason"] ?? ""
            switch response.status.code {
            case 200:
                return .accepted(providerID: response.headers.first(name: "apns-id") ?? message.id)
            case 400 where reason == "BadDeviceToken" || reason == "DeviceTokenNotForTopic", 410:
                return .invalidToken(reason: reason.isEmpty ? "Unregistered" : reason)
            case 403 where reason == "ExpiredProviderToken" && retryingExpiredToken:
                _ = try? currentProviderToken(forceNew: true)
                return await send(message, to: device, retryingExpiredToken: false)
            case 429, 500...599:
                let seconds = response.headers.first(name: "retry-after").flatMap(Int.init)
                return .retry(reason: "APNs \(response.status.code) \(reason)", retryAfter: seconds.map { .seconds($0) })
            default:
                return .failed(reason: "APNs \(response.status.code) \(reason)")
            }
        } catch {
            return .retry(reason: "APNs unreachable: \(error)", retryAfter: nil)
        }
    }

    /// The JSON body: `aps.alert` with title and body (and `mutable-content` when asked), plus the
    /// type and data at the top level.
    package static func payload(_ message: PushMessage) -> [UInt8] {
        var aps: [String: Any] = ["alert": ["title": message.title, "body": message.body], "sound": "default"]
        if message.mutableContent { aps["mutable-content"] = 1 }
        var object: [String: Any] = ["aps": aps]
        for (key, value) in message.data where key != "aps" { object[key] = value }
        object["type"] = message.type
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map(Array.init) ?? []
    }
}
