import Foundation
import KindredStore
import Logging
import SQLKit

/// The transports of each app: APNs and FCM when configured, the log transport otherwise.
public struct PushTransports: Sendable {
    private var byApp: [AppID: [String: any PushTransport]] = [:]
    private let fallback: any PushTransport

    /// No provider configured: every push goes to `fallback` (the log transport).
    public init(fallback: any PushTransport) {
        self.fallback = fallback
    }

    /// Uses `transport` for `app`'s tokens of `kind` (`apns` or `fcm`).
    public mutating func set(_ transport: any PushTransport, for app: AppID, kind: String) {
        byApp[app, default: [:]][kind] = transport
    }

    /// The transport for a token of `kind` of `app`.
    package func transport(for app: AppID, kind: String) -> any PushTransport {
        byApp[app]?[kind] ?? fallback
    }
}

/// Sends one queued notification to every device of its user, at most once per device.
///
/// What a provider accepted is recorded per (notification, token) before the dispatcher moves
/// on, so a retry skips it. A crash between the provider's acceptance and that record resends
/// once, with the same `apns-id` and collapse id, so the phone shows it once. Tokens the
/// provider rejects as dead are deleted. Inside the user's quiet window a non-critical
/// notification is deferred to the window's end, never dropped.
public struct NotificationDispatcher: Sendable {
    /// What became of one dispatch.
    public enum Outcome: Sendable, Equatable {
        /// Every device accepted it (or the user has none left): state `sent`.
        case sent(devices: Int)
        /// Not now: run again at this time (quiet hours); not a failed attempt.
        case deferred(until: Date)
        /// The user opted out, or the notification is gone or already sent: nothing to do.
        case skipped
        /// Some devices failed temporarily: retry (after `retryAfter` if a provider said).
        case retry(reason: String, retryAfter: Duration?)
    }

    package let database: Database
    package let clock: any WallClock
    package let transports: PushTransports
    package let logger: Logger

    /// Creates a dispatcher.
    public init(database: Database, clock: any WallClock, transports: PushTransports, logger: Logger) {
        self.database = database
        self.clock = clock
        self.transports = transports
        self.logger = logger
    }

    /// Dispatches the notification `id`.
    public func dispatch(_ id: String) async throws -> Outcome {
        let sql = database.sql
        // The notification, its user's settings, profile time zone and push tokens in one read
        // (one row per token; one row with null token columns when the user has none).
        let rows = try await sql.raw(Self.notificationQuery(id)).all()
        guard let row = rows.first else { return .skipped }
        let state = try row.decode(column: "state", as: String.self)
        guard state == "queued" || state == "sending" else { return .skipped }
        let userID = try row.decode(column: "user_id", as: String.self)
        let type = NotificationType(rawValue: try row.decode(column: "type", as: String.self))
        let now = clock.now()

        // Settings may have changed since it was queued: check opt-out and quiet hours now.
        if !type.isCritical, let settings = try NotificationSettingsRecord.decode(joined: row, prefix: "s_", userID: userID) {
            if settings.optOut.contains(type.rawValue) {
                try await setState(id, "skipped")
                return .skipped
            }
            let profileZone = try row.decode(column: "profile_time_zone", as: String?.self)
            if let end = settings.quietHours(fallbackZone: profileZone)?.deferral(at: now) {
                try await sql.update("kindred_notifications").set("deliver_after", to: end.millisecondsSince1970)
                    .where("id", .equal, id).run()
                return .deferred(until: end)
            }
        }

        var data = (try? JSONDecoder().decode([String: String].self, from: Data(try row.decode(column: "data", as: String.self).utf8))) ?? [:]
        let mutableContent = data.removeValue(forKey: OutgoingNotification.mutableContentKey) == "1"
        let message = PushMessage(
            id: id, type: type.rawValue, title: try row.decode(column: "title", as: String.self),
            body: try row.decode(column: "body", as: String.self), data: data,
            collapseID: try row.decode(column: "collapse_id", as: String?.self) ?? id,
            highPriority: true, expiresAt: now.addingTimeInterval(86_400), mutableContent: mutableContent
        )
        let app = AppID(rawValue: try row.decode(column: "app", as: String.self)) ?? .closer
        let attempts = try row.decode(column: "attempts", as: Int.self) + 1

        // Acceptances are recorded with the attempt count, so a first attempt has none to skip.
        let accepted = attempts == 1 ? Set<String>() : Set(try await sql.select().column("token_id")
            .from("kindred_notification_deliveries")
            .where("notification_id", .equal, id).where("state", .equal, "accepted").all()
            .map { try $0.decode(column: "token_id", as: String.self) })
        let devices = try rows.compactMap { row -> PushDevice? in
            guard let tokenID = try row.decode(column: "t_id", as: String?.self) else { return nil }
            return PushDevice(
                tokenID: tokenID, token: try row.decode(column: "t_token", as: String.self),
                transport: try row.decode(column: "t_transport", as: String.self),
                apnsEnvironment: try row.decode(column: "t_apns_environment", as: String?.self)
            )
        }
        // Devices are sent to concurrently; what each provider said is written in ONE transaction
        // afterwards (acceptances, dead tokens, the new state), so a dispatch costs one commit.
        let pending = devices.filter { !accepted.contains($0.tokenID) }
        let results = await withTaskGroup(of: (PushDevice, PushResult).self) { group in
            for device in pending {
                let transport = transports.transport(for: app, kind: device.transport)
                group.addTask { (device, await transport.send(message, to: device)) }
            }
            return await group.reduce(into: [(PushDevice, PushResult)]()) { $0.append($1) }
        }
        var retry: (reason: String, after: Duration?)?
        var delivered = accepted.count
        var records: [(PushDevice, String?, String)] = []
        var deadTokens: [String] = []
        var prunedByTransport: [String: Int] = [:]
        for (device, result) in results {
            switch result {
            case .accepted(let providerID):
                records.append((device, providerID, "accepted"))
                delivered += 1
            case .invalidToken(let reason):
                logger.notice("push token rejected; deleting it", metadata: ["reason": "\(reason)", "transport": "\(device.transport)"])
                deadTokens.append(device.tokenID)
                prunedByTransport[device.transport, default: 0] += 1
            case .retry(let reason, let after):
                retry = (reason, [retry?.after, after].compactMap { $0 }.max())
            case .failed(let reason):
                logger.warning("push failed permanently", metadata: ["reason": "\(reason)", "transport": "\(device.transport)"])
                records.append((device, nil, "failed"))
            }
        }
        let nowMS = clock.now().millisecondsSince1970
        let finalRetry = retry
        let finalRecords = records
        let finalDeadTokens = deadTokens
        let finalPruned = prunedByTransport
        // Written out: SQLKit's builders cost more to serialize than SQLite takes to run it.
        let finish: SQLQueryString = finalRetry.map {
            "UPDATE kindred_notifications SET attempts = \(bind: attempts), state = 'sending', last_error = \(bind: $0.reason) WHERE id = \(bind: id)"
        } ?? (message.mutableContent
            // A push whose data the device decrypts (a sealed envelope) keeps none of it once sent.
            ? "UPDATE kindred_notifications SET attempts = \(bind: attempts), state = 'sent', sent_at = \(bind: nowMS), data = '{}' WHERE id = \(bind: id)"
            : "UPDATE kindred_notifications SET attempts = \(bind: attempts), state = 'sent', sent_at = \(bind: nowMS) WHERE id = \(bind: id)")
        // In a transaction even when it is the only statement: on SQLite that joins the group
        // commit (a statement on its own would be a commit and an fsync of its own, contending
        // with the group's writer for the lock).
        try await database.transaction { sql in
            for (device, providerID, state) in finalRecords {
                try await sql.insert(into: "kindred_notification_deliveries")
                    .columns("notification_id", "token_id", "user_id", "provider_id", "state", "updated_at")
                    .values(SQLBind(id), SQLBind(device.tokenID), SQLBind(userID), SQLBind(providerID), SQLBind(state), SQLBind(nowMS))
                    .onConflict(with: ["notification_id", "token_id"]) {
                        $0.set(excludedValueOf: "provider_id").set(excludedValueOf: "state").set(excludedValueOf: "updated_at")
                    }
                    .run()
            }
            if !finalDeadTokens.isEmpty {
                try await sql.delete(from: "kindred_push_tokens").where("id", .in, finalDeadTokens).run()
                for (transport, count) in finalPruned.sorted(by: { $0.key < $1.key }) {
                    try await NotificationsSchema.recordPrunes(app: app.rawValue, transport: transport, count: count, now: nowMS, on: sql)
                }
            }
            try await sql.raw(finish).run()
        }
        if let retry { return .retry(reason: retry.reason, retryAfter: retry.after) }
        return .sent(devices: delivered)
    }

    /// Marks a notification failed for good (the queue gave up on it).
    public func markFailed(_ id: String, reason: String) async throws {
        try await database.sql.update("kindred_notifications").set("state", to: "failed")
            .set("last_error", to: reason).where("id", .equal, id).run()
    }

    /// The notification `id` joined with its user's settings (columns `s_*`, NULL when the user
    /// has none), profile time zone and push tokens (columns `t_*`, one row per token).
    private static func notificationQuery(_ id: String) -> SQLQueryString {
        """
        SELECT n.user_id, n.app, n.type, n.title, n.body, n.data, n.collapse_id, n.state, n.attempts,
               s.time_zone AS s_time_zone, s.quiet_start AS s_quiet_start, s.quiet_end AS s_quiet_end,
               s.opt_out AS s_opt_out, s.updated_at AS s_updated_at, u.time_zone AS profile_time_zone,
               t.id AS t_id, t.token AS t_token, t.transport AS t_transport, t.apns_environment AS t_apns_environment
        FROM kindred_notifications n
        LEFT JOIN kindred_notification_settings s ON s.user_id = n.user_id
        LEFT JOIN kindred_users u ON u.id = n.user_id
        LEFT JOIN kindred_push_tokens t ON t.user_id = n.user_id
        WHERE n.id = \(bind: id)
        """
    }

    private func setState(_ id: String, _ state: String) async throws {
        try await database.sql.update("kindred_notifications").set("state", to: state).where("id", .equal, id).run()
    }

}
