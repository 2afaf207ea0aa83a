import AsyncHTTPClient
import Foundation
import KindredStore
import Logging

/// Where an app's APNs credentials are (`apps.<app>.apns.*`). The key is read from a file, never
/// from a flag or the settings themselves.
public struct APNsSettings: Sendable, Equatable {
    /// The developer team id.
    public var teamID: String
    /// The signing key's id.
    public var keyID: String
    /// The path of the `.p8` key file.
    public var keyFile: String
    /// The `apns-topic` (the app's bundle id).
    public var topic: String
    /// Endpoint overrides (tests, proxies); Apple's hosts when nil.
    public var productionURL: String?
    /// Endpoint override for sandbox tokens.
    public var sandboxURL: String?

    /// Creates settings.
    public init(teamID: String, keyID: String, keyFile: String, topic: String, productionURL: String? = nil, sandboxURL: String? = nil) {
        self.teamID = teamID
        self.keyID = keyID
        self.keyFile = keyFile
        self.topic = topic
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
    }
}

/// Where an app's FCM service account is (`apps.<app>.fcm.*`).
public struct FCMSettings: Sendable, Equatable {
    /// The path of the service-account JSON file.
    public var serviceAccountFile: String
    /// API base override (tests); Google's when nil.
    public var apiBaseURL: String?

    /// Creates settings.
    public init(serviceAccountFile: String, apiBaseURL: String? = nil) {
        self.serviceAccountFile = serviceAccountFile
        self.apiBaseURL = apiBaseURL
    }
}

extension PushTransports {
    /// Builds each app's transports from its settings; apps with none use the log transport.
    /// - Throws: `SettingsError` naming the app and file when a key cannot be read.
    public static func configured(
        apps: AppRegistry, client: HTTPClient, clock: any WallClock, logger: Logger
    ) throws -> PushTransports {
        var transports = PushTransports(fallback: LogPushTransport(logger: logger))
        for app in apps.apps.values where app.enabled {
            if let apns = app.apns {
                do {
                    var configuration = try APNsConfiguration(
                        teamID: apns.teamID, keyID: apns.keyID,
                        privateKeyPEM: try String(contentsOfFile: apns.keyFile, encoding: .utf8), topic: apns.topic
                    )
                    if let url = apns.productionURL { configuration.productionURL = url }
                    if let url = apns.sandboxURL { configuration.sandboxURL = url }
                    transports.set(APNsTransport(configuration: configuration, client: client, clock: clock, logger: logger), for: app.id, kind: "apns")
                } catch {
                    throw SettingsError(description: "apps.\(app.id.rawValue).apns: cannot use the key \(apns.keyFile): \(error)")
                }
            }
            if let fcm = app.fcm {
                do {
                    var configuration = try FCMConfiguration(serviceAccountJSON: try Data(contentsOf: URL(fileURLWithPath: fcm.serviceAccountFile)))
                    if let url = fcm.apiBaseURL { configuration.apiBaseURL = url }
                    transports.set(FCMTransport(configuration: configuration, client: client, clock: clock, logger: logger), for: app.id, kind: "fcm")
                } catch {
                    throw SettingsError(
                        description: "apps.\(app.id.rawValue).fcm: cannot use the service account \(fcm.serviceAccountFile): \(error)"
                    )
                }
            }
        }
        return transports
    }
}
