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
        let rows = try await read([id])[id] ?? []
        let now = clock.now()
        switch try decide(rows, now: now) {
        case .skip:
            return .skipped
        case .optedOut:
            try await setState(id, "skipped")
            return .skipped
        case .deferred(let end):
            try await database.sql.raw(Self.deferral(id, until: end)).run()
            return .deferred(until: end)
        case .send(let send):
            let send = try await withAcceptances(send)
            let results = await Self.deliver([send], transports: transports)
            let finish = finish(send, results: results[send.id] ?? [])
            // In a transaction even when it is the only statement: on SQLite that joins the group
            // commit (a statement on its own would be a commit and an fsync of its own, contending
            // with the group's writer for the lock).
            try await database.transaction { sql in try await Self.write(finish, on: sql) }
            return finish.outcome
        }
    }

    /// Dispatches a lane of the notifications queue's items (each payload a notification id) as
    /// `dispatch(_:)` does each one, with the lane's database work shared: one read of every
    /// notification with its user's settings and tokens, every push of the lane sent at once,
    /// then ONE transaction that records the deliveries, dead tokens and each notification's new
    /// state, queues the deferred ones again for the end of their quiet window, and completes
    /// the items (`QueueBatchHandler`). One at a time, each notification cost two commits (its
    /// state, then its item's completion) and a read of its own.
    /// - Returns: the items to retry, with the reason (a provider's temporary failure); the
    ///   worker records those as failed attempts, as it does for `dispatch(_:)`'s `.retry`.
    package func dispatch(batch items: [QueueItem], queue: WorkQueue, policy: RetryPolicy) async throws -> [String: String] {
        let rows = try await read(items.map(\.payload))
        let now = clock.now()
        var steps: [(QueueItem, Step)] = []
        for item in items {
            var step = try decide(rows[item.payload] ?? [], now: now)
            if case .send(let send) = step { step = .send(try await withAcceptances(send)) }
            steps.append((item, step))
        }
        let sends = steps.compactMap { if case .send(let send) = $0.1 { send } else { nil } }
        let results = await Self.deliver(sends, transports: transports)
        var failures: [String: String] = [:]
        var finishes: [(QueueItem, Finish)] = []
        for (item, step) in steps {
            guard case .send(let send) = step else { continue }
            let finish = finish(send, results: results[send.id] ?? [])
            if case .retry(let reason, _) = finish.outcome { failures[item.id] = reason }
            finishes.append((item, finish))
        }
        let lastAttempts = Set(items.filter { $0.attempt >= policy.maxAttempts }.map(\.id))
        let name = NotificationsQueue.name
        try await database.transaction { [steps, finishes, failures] sql in
            for (item, step) in steps {
                switch step {
                case .skip, .send: break
                case .optedOut:
                    try await sql.raw(Self.state(item.payload, "skipped")).run()
                case .deferred(let end):
                    try await sql.raw(Self.deferral(item.payload, until: end)).run()
                    try await queue.enqueue(
                        queue: name, payload: item.payload, runAt: end,
                        dedupeKey: "\(item.payload)@\(Int(end.timeIntervalSince1970))", on: sql
                    )
                }
            }
            for (item, finish) in finishes {
                try await Self.write(finish, on: sql)
                if let reason = failures[item.id], lastAttempts.contains(item.id) {
                    try await sql.raw(Self.failed(item.payload, reason: reason)).run()
                }
            }
            try await WorkQueue.complete(items.filter { failures[$0.id] == nil }, on: sql)
        }
        return failures
    }

    /// What one notification needs, decided from its joined rows.
    enum Step: Sendable {
        /// Gone, or no longer queued: nothing to do.
        case skip
        /// The user opted out of its type: state `skipped`.
        case optedOut
        /// Inside the user's quiet window: run again at its end.
        case deferred(Date)
        /// To be sent to the user's devices.
        case send(Send)
    }

    /// A notification to send, and to whom.
    struct Send: Sendable {
        let id: String
        let userID: String
        let app: AppID
        let message: PushMessage
        /// This attempt's number (the stored count + 1).
        let attempts: Int
        let devices: [PushDevice]
        /// Tokens that accepted it on an earlier attempt (skipped now, counted as delivered).
        var accepted: Set<String> = []
    }

    /// What a send came to, written by `write(_:on:)`.
    struct Finish: Sendable {
        let id: String
        let userID: String
        let app: AppID
        let records: [(PushDevice, String?, String)]
        let deadTokens: [String]
        let prunedByTransport: [String: Int]
        let finish: SQLQueryString
        let outcome: Outcome
        /// The clock's time of the answers, in milliseconds.
        let updatedAt: Int64
    }

    /// The notifications `ids` joined with their users' settings and tokens, rows by id.
    private func read(_ ids: [String]) async throws -> [String: [any SQLRow]] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.sql.raw(Self.notificationQuery(ids)).all()
        var byID: [String: [any SQLRow]] = [:]
        for row in rows { byID[try row.decode(column: "n_id", as: String.self), default: []].append(row) }
        return byID
    }

    /// Decides what to do with a notification from its rows (none when it is gone).
    private func decide(_ rows: [any SQLRow], now: Date) throws -> Step {
        guard let row = rows.first else { return .skip }
        let state = try row.decode(column: "state", as: String.self)
        guard state == "queued" || state == "sending" else { return .skip }
        let id = try row.decode(column: "n_id", as: String.self)
        let userID = try row.decode(column: "user_id", as: String.self)
        let type = NotificationType(rawValue: try row.decode(column: "type", as: String.self))

        // Settings may have changed since it was queued: check opt-out and quiet hours now.
        if !type.isCritical, let settings = try NotificationSettingsRecord.decode(joined: row, prefix: "s_", userID: userID) {
            if settings.optOut.contains(type.rawValue) { return .optedOut }
            let profileZone = try row.decode(column: "profile_time_zone", as: String?.self)
            if let end = settings.quietHours(fallbackZone: profileZone)?.deferral(at: now) { return .deferred(end) }
        }

        var data = (try? JSONDecoder().decode([String: String].self, from: Data(try row.decode(column: "data", as: String.self).utf8))) ?? [:]
        let mutableContent = data.removeValue(forKey: OutgoingNotification.mutableContentKey) == "1"
        let message = PushMessage(
            id: id, type: type.rawValue, title: try row.decode(column: "title", as: String.self),
            body: try row.decode(column: "body", as: String.self), data: data,
            collapseID: try row.decode(column: "collapse_id", as: String?.self) ?? id,
            highPriority: true, expiresAt: now.addingTimeInterval(86_400), mutableContent: mutableContent
        )
        let devices = try rows.compactMap { row -> PushDevice? in
            guard let tokenID = try row.decode(column: "t_id", as: String?.self) else { return nil }
            return PushDevice(
                tokenID: tokenID, token: try row.decode(column: "t_token", as: String.self),
                transport: try row.decode(column: "t_transport", as: String.self),
                apnsEnvironment: try row.decode(column: "t_apns_environment", as: String?.self)
            )
        }
        return .send(Send(
            id: id, userID: userID, app: AppID(rawValue: try row.decode(column: "app", as: String.self)) ?? .closer,
            message: message, attempts: try row.decode(column: "attempts", as: Int.self) + 1, devices: devices
        ))
    }

    /// `send` with the tokens that accepted it on earlier attempts (acceptances are recorded
    /// with the attempt count, so a first attempt has none to read).
    private func withAcceptances(_ send: Send) async throws -> Send {
        guard send.attempts > 1 else { return send }
        var send = send
        send.accepted = Set(try await database.sql.select().column("token_id")
            .from("kindred_notification_deliveries")
            .where("notification_id", .equal, send.id).where("state", .equal, "accepted").all()
            .map { try $0.decode(column: "token_id", as: String.self) })
        return send
    }

    /// Sends every notification to each of its devices that has not accepted it yet, all at once.
    private static func deliver(_ sends: [Send], transports: PushTransports) async -> [String: [(PushDevice, PushResult)]] {
        await withTaskGroup(of: (String, PushDevice, PushResult).self) { group in
            for send in sends {
                for device in send.devices where !send.accepted.contains(device.tokenID) {
                    let transport = transports.transport(for: send.app, kind: device.transport)
                    let message = send.message
                    group.addTask { (send.id, device, await transport.send(message, to: device)) }
                }
            }
            return await group.reduce(into: [String: [(PushDevice, PushResult)]]()) { $0[$1.0, default: []].append(($1.1, $1.2)) }
        }
    }

    /// What the providers' answers mean for the notification: acceptances and permanent failures
    /// to record, dead tokens to delete, and the new state (or a retry).
    private func finish(_ send: Send, results: [(PushDevice, PushResult)]) -> Finish {
        var retry: (reason: String, after: Duration?)?
        var delivered = send.accepted.count
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
        let id = send.id
        let attempts = send.attempts
        // Written out: SQLKit's builders cost more to serialize than SQLite takes to run it.
        let finish: SQLQueryString = retry.map {
            "UPDATE kindred_notifications SET attempts = \(bind: attempts), state = 'sending', last_error = \(bind: $0.reason) WHERE id = \(bind: id)"
        } ?? (send.message.mutableContent
            // A push whose data the device decrypts (a sealed envelope) keeps none of it once sent.
            ? "UPDATE kindred_notifications SET attempts = \(bind: attempts), state = 'sent', sent_at = \(bind: nowMS), data = '{}' WHERE id = \(bind: id)"
            : "UPDATE kindred_notifications SET attempts = \(bind: attempts), state = 'sent', sent_at = \(bind: nowMS) WHERE id = \(bind: id)")
        return Finish(
            id: id, userID: send.userID, app: send.app, records: records, deadTokens: deadTokens,
            prunedByTransport: prunedByTransport, finish: finish,
            outcome: retry.map { .retry(reason: $0.reason, retryAfter: $0.after) } ?? .sent(devices: delivered),
            updatedAt: nowMS
        )
    }

    /// Records a send's outcome inside the caller's transaction.
    private static func write(_ finish: Finish, on sql: any SQLDatabase) async throws {
        for (device, providerID, state) in finish.records {
            try await sql.insert(into: "kindred_notification_deliveries")
                .columns("notification_id", "token_id", "user_id", "provider_id", "state", "updated_at")
                .values(SQLBind(finish.id), SQLBind(device.tokenID), SQLBind(finish.userID), SQLBind(providerID), SQLBind(state), SQLBind(finish.updatedAt))
                .onConflict(with: ["notification_id", "token_id"]) {
                    $0.set(excludedValueOf: "provider_id").set(excludedValueOf: "state").set(excludedValueOf: "updated_at")
                }
                .run()
        }
        if !finish.deadTokens.isEmpty {
            try await sql.delete(from: "kindred_push_tokens").where("id", .in, finish.deadTokens).run()
            for (transport, count) in finish.prunedByTransport.sorted(by: { $0.key < $1.key }) {
                try await NotificationsSchema.recordPrunes(app: finish.app.rawValue, transport: transport, count: count, now: finish.updatedAt, on: sql)
            }
        }
        try await sql.raw(finish.finish).run()
    }

    /// Marks a notification failed for good (the queue gave up on it).
    public func markFailed(_ id: String, reason: String) async throws {
        try await database.sql.raw(Self.failed(id, reason: reason)).run()
    }

    /// The notifications `ids` joined with their users' settings (columns `s_*`, NULL when the
    /// user has none), profile time zone and push tokens (columns `t_*`, one row per token).
    private static func notificationQuery(_ ids: [String]) -> SQLQueryString {
        """
        SELECT n.id AS n_id, n.user_id, n.app, n.type, n.title, n.body, n.data, n.collapse_id, n.state, n.attempts,
               s.time_zone AS s_time_zone, s.quiet_start AS s_quiet_start, s.quiet_end AS s_quiet_end,
               s.opt_out AS s_opt_out, s.updated_at AS s_updated_at, u.time_zone AS profile_time_zone,
               t.id AS t_id, t.token AS t_token, t.transport AS t_transport, t.apns_environment AS t_apns_environment
        FROM kindred_notifications n
        LEFT JOIN kindred_notification_settings s ON s.user_id = n.user_id
        LEFT JOIN kindred_users u ON u.id = n.user_id
        LEFT JOIN kindred_push_tokens t ON t.user_id = n.user_id
        WHERE n.id IN (\(binds: ids))
        """
    }

    private static func state(_ id: String, _ state: String) -> SQLQueryString {
        "UPDATE kindred_notifications SET state = \(bind: state) WHERE id = \(bind: id)"
    }

    private static func deferral(_ id: String, until end: Date) -> SQLQueryString {
        "UPDATE kindred_notifications SET deliver_after = \(bind: end.millisecondsSince1970) WHERE id = \(bind: id)"
    }

    private static func failed(_ id: String, reason: String) -> SQLQueryString {
        "UPDATE kindred_notifications SET state = 'failed', last_error = \(bind: reason) WHERE id = \(bind: id)"
    }

    private func setState(_ id: String, _ state: String) async throws {
        try await database.sql.raw(Self.state(id, state)).run()
    }
}
