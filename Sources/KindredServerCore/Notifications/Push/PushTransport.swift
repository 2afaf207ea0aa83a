import Foundation

/// One device a push goes to.
public struct PushDevice: Sendable, Equatable {
    /// The row id of the token (`kindred_push_tokens.id`).
    public var tokenID: String
    /// The APNs device token (hex) or FCM registration token.
    public var token: String
    /// `apns` or `fcm`.
    public var transport: String
    /// `sandbox` or `production` (APNs only).
    public var apnsEnvironment: String?

    /// Creates a device.
    public init(tokenID: String, token: String, transport: String, apnsEnvironment: String?) {
        self.tokenID = tokenID
        self.token = token
        self.transport = transport
        self.apnsEnvironment = apnsEnvironment
    }
}

/// What is pushed: the visible alert, its data, and the ids that let the phone show it once.
public struct PushMessage: Sendable, Equatable {
    /// The notification's id; also the `apns-id` (a UUID), so a resend is recognisably the same.
    public var id: String
    /// The notification type (`daily_question`, …).
    public var type: String
    /// The alert title.
    public var title: String
    /// The alert body.
    public var body: String
    /// Extra key/value data for the app.
    public var data: [String: String]
    /// Collapses notifications with the same id on the device (`apns-collapse-id`, FCM `collapse_key`).
    public var collapseID: String?
    /// Time-sensitive types get APNs priority 10; others 5.
    public var highPriority: Bool
    /// After this the provider may discard the push (`apns-expiration`, FCM `ttl`).
    public var expiresAt: Date?
    /// The app's notification service extension may rewrite the alert (`aps.mutable-content: 1`).
    public var mutableContent: Bool

    /// Creates a message.
    public init(
        id: String, type: String, title: String, body: String, data: [String: String] = [:],
        collapseID: String? = nil, highPriority: Bool = true, expiresAt: Date? = nil, mutableContent: Bool = false
    ) {
        self.mutableContent = mutableContent
        self.id = id
        self.type = type
        self.title = title
        self.body = body
        self.data = data
        self.collapseID = collapseID
        self.highPriority = highPriority
        self.expiresAt = expiresAt
    }
}

/// What a provider said about one push.
public enum PushResult: Sendable, Equatable {
    /// Accepted; the provider's id of the message (`apns-id`, FCM message name).
    case accepted(providerID: String)
    /// The token is dead (`Unregistered`, `BadDeviceToken`, `UNREGISTERED`): delete it, do not retry.
    case invalidToken(reason: String)
    /// A temporary failure (429, 5xx, network): retry later, after `retryAfter` if the provider said.
    case retry(reason: String, retryAfter: Duration?)
    /// A permanent failure for this message (bad payload, bad credentials): do not retry.
    case failed(reason: String)
}

/// Sends pushes through one provider.
public protocol PushTransport: Sendable {
    /// Sends `message` to `device`. Never throws: every outcome is a `PushResult`.
    func send(_ message: PushMessage, to device: PushDevice) async -> PushResult
}
