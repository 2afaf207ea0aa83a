import Foundation
import KindredAPI
import KindredStore
import SQLKit

/// Push tokens and notification settings of the signed-in account.
struct NotificationsController: Sendable {
    let database: Database
    let clock: any WallClock
    /// Where domains queue notifications (inside their transactions).
    let outbox: NotificationOutbox

    // MARK: - Push tokens

    /// The most tokens one account keeps (issue 21, item 9): registering one more drops the
    /// least recently registered, so a script cannot grow an account's fan-out without bound.
    static let maxTokensPerUser = 20

    /// Registers a device's token; returns it and whether it is new.
    func register(
        _ registration: Components.Schemas.PushTokenRegistration, for user: AuthenticatedUser
    ) async throws -> (Components.Schemas.PushToken, created: Bool) {
        let transport = registration.transport.rawValue
        let token = try Self.validToken(registration.token, transport: registration.transport)
        let environment: String?
        switch (registration.transport, registration.apnsEnvironment) {
        case (.apns, nil): throw KindredError.invalidPushToken("apnsEnvironment (sandbox or production) is required for apns")
        case (.apns, .some(let value)): environment = value.rawValue
        case (.fcm, .some): throw KindredError.invalidPushToken("apnsEnvironment is only for apns tokens")
        case (.fcm, nil): environment = nil
        }
        let deviceID = registration.deviceId
        guard (1...128).contains(deviceID.utf8.count), deviceID.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw KindredError.invalidPushToken("deviceId must be 1 to 128 visible ASCII characters")
        }
        let now = clock.now().millisecondsSince1970
        let userID = user.user.id
        let app = user.user.app
        let created = try await database.transaction { sql in
            // The device's previous token is replaced by this one.
            try await sql.delete(from: "kindred_push_tokens")
                .where("user_id", .equal, userID).where("device_id", .equal, deviceID)
                .where("token", .notEqual, token).run()
            let moved = try await sql.update("kindred_push_tokens")
                .set("user_id", to: userID).set("device_id", to: deviceID)
                .set("apns_environment", to: environment).set("updated_at", to: now)
                .where("app", .equal, app).where("transport", .equal, transport).where("token", .equal, token)
                .returning("id").all()
            guard moved.isEmpty else { return false }
            try await sql.insert(into: "kindred_push_tokens")
                .columns("id", "user_id", "app", "transport", "token", "apns_environment", "device_id", "created_at", "updated_at")
                .values(
                    SQLBind(UUID().uuidString.lowercased()), SQLBind(userID), SQLBind(app), SQLBind(transport),
                    SQLBind(token), SQLBind(environment), SQLBind(deviceID), SQLBind(now), SQLBind(now)
                )
                .run()
            // Over the cap: the least recently registered tokens go (never the one just stored).
            let surplus = try await sql.select().column("id").from("kindred_push_tokens")
                .where("user_id", .equal, userID)
                .orderBy("updated_at", .descending).orderBy("created_at", .descending).orderBy("id", .descending)
                .limit(1_000).offset(Self.maxTokensPerUser).all()
                .map { try $0.decode(column: "id", as: String.self) }
            if !surplus.isEmpty {
                try await sql.delete(from: "kindred_push_tokens").where("id", .in, surplus).run()
            }
            return true
        }
        let stored = try await tokens(of: user).first { $0.token == token }
        guard let stored else { throw KindredError.internal }
        return (stored, created)
    }

    /// The account's tokens, newest first.
    func tokens(of user: AuthenticatedUser) async throws -> [Components.Schemas.PushToken] {
        try await database.sql.select().columns("token", "transport", "apns_environment", "device_id", "created_at")
            .from("kindred_push_tokens").where("user_id", .equal, user.user.id)
            .orderBy("created_at", .descending).all()
            .map { row in
                Components.Schemas.PushToken(
                    token: try row.decode(column: "token", as: String.self),
                    transport: .init(rawValue: try row.decode(column: "transport", as: String.self)) ?? .fcm,
                    apnsEnvironment: try row.decode(column: "apns_environment", as: String?.self).flatMap { .init(rawValue: $0) },
                    deviceId: try row.decode(column: "device_id", as: String.self),
                    createdAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "created_at", as: Int64.self)) / 1000)
                )
            }
    }

    /// Deletes one of the account's tokens.
    /// - Throws: `pushTokenNotFound`.
    func delete(token: String, of user: AuthenticatedUser) async throws {
        // APNs tokens are stored lower-cased; the client's upper-case spelling finds them too.
        let spellings = Array(Set([token, token.lowercased()]))
        let deleted = try await database.sql.delete(from: "kindred_push_tokens")
            .where("user_id", .equal, user.user.id).where("token", .in, spellings)
            .returning("id").all()
        guard !deleted.isEmpty else { throw KindredError.pushTokenNotFound }
    }

    /// A token as stored: APNs tokens are 32 to 100 bytes of hex (stored lower-case); FCM tokens
    /// are 1 to 4096 visible ASCII characters.
    static func validToken(
        _ token: String, transport: Components.Schemas.PushTokenRegistration.TransportPayload
    ) throws -> String {
        switch transport {
        case .apns:
            guard (64...200).contains(token.utf8.count), token.utf8.count % 2 == 0,
                token.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit })
            else { throw KindredError.invalidPushToken("an APNs device token is 64 to 200 hexadecimal characters") }
            return token.lowercased()
        case .fcm:
            guard (1...4096).contains(token.utf8.count), token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw KindredError.invalidPushToken("an FCM registration token is 1 to 4096 visible ASCII characters")
            }
            return token
        }
    }

    // MARK: - Settings

    /// The account's settings, or the defaults (profile time zone, no quiet hours, no opt-outs).
    func settings(of user: AuthenticatedUser) async throws -> Components.Schemas.NotificationSettings {
        let stored = try await NotificationSettingsRecord.load(userID: user.user.id, on: database.sql)
        guard let stored else { return .init(timeZone: user.user.timeZone, quietHours: nil, optOut: []) }
        return stored.representation
    }

    /// Replaces the account's settings.
    /// - Throws: `invalidNotificationSettings`.
    func replaceSettings(
        _ settings: Components.Schemas.NotificationSettings, of user: AuthenticatedUser
    ) async throws -> Components.Schemas.NotificationSettings {
        var zone: String?
        if let text = settings.timeZone, !text.isEmpty {
            do {
                zone = try AccountInput.timeZone(text)
            } catch {
                throw KindredError.invalidNotificationSettings("timeZone \"\(text.prefix(64))\" is not an IANA time zone")
            }
        }
        var window: (Int, Int)?
        if let quiet = settings.quietHours {
            guard let start = QuietHours.minutes(quiet.start), let end = QuietHours.minutes(quiet.end) else {
                throw KindredError.invalidNotificationSettings("quietHours start and end are HH:MM")
            }
            guard start != end else { throw KindredError.invalidNotificationSettings("quietHours start and end must differ") }
            window = (start, end)
        }
        var optOut: [String] = []
        for name in settings.optOut where !optOut.contains(name) {
            guard NotificationType.isWellFormed(name) else {
                throw KindredError.invalidNotificationSettings("\"\(name.prefix(64))\" is not a notification type")
            }
            guard !NotificationType(rawValue: name).isCritical else {
                throw KindredError.invalidNotificationSettings("\(name) notifications cannot be turned off")
            }
            optOut.append(name)
        }
        let record = NotificationSettingsRecord(
            userID: user.user.id, timeZone: zone, quietStart: window?.0, quietEnd: window?.1, optOut: optOut.sorted(),
            updatedAt: clock.now().millisecondsSince1970
        )
        try await record.save(on: database.sql)
        return record.representation
    }
}
