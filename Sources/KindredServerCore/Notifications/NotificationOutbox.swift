import Foundation
import KindredStore
import SQLKit

/// A notification a domain wants to send to one user.
public struct OutgoingNotification: Sendable, Equatable {
    /// The recipient.
    public var userID: String
    /// The recipient's app.
    public var app: AppID
    /// Its type (`daily_question`, `account_security`, …).
    public var type: NotificationType
    /// The alert title.
    public var title: String
    /// The alert body.
    public var body: String
    /// Data for the app (ids, never secrets).
    public var data: [String: String]
    /// Collapses repeats on the device; the notification's own id when nil.
    public var collapseID: String?
    /// Whether the app's notification service extension may rewrite the alert on the device
    /// (APNs `mutable-content: 1`), e.g. to decrypt a preview from an end-to-end sealed `data` value.
    public var mutableContent: Bool

    /// The `data` key that carries `mutableContent` through the queue's `data` column; the
    /// dispatcher takes it out again before a transport sees the data.
    package static let mutableContentKey = "kindred.mutable-content"

    /// Creates a notification.
    public init(
        userID: String, app: AppID, type: NotificationType, title: String, body: String,
        data: [String: String] = [:], collapseID: String? = nil, mutableContent: Bool = false
    ) {
        self.userID = userID
        self.app = app
        self.type = type
        self.title = title
        self.body = body
        self.data = data
        self.collapseID = collapseID
        self.mutableContent = mutableContent
    }
}

/// Writes notifications into the per-user queue, inside the caller's transaction, so a
/// notification exists if and only if the write that caused it committed.
public struct NotificationOutbox: Sendable {
    package let clock: any WallClock
    /// Called after the row is written, in the same transaction (the work-queue enqueue).
    package let onQueued: @Sendable (_ notificationID: String, _ notBefore: Date, _ sql: any SQLDatabase) async throws -> Void

    /// Creates the outbox.
    public init(
        clock: any WallClock,
        onQueued: @escaping @Sendable (_ notificationID: String, _ notBefore: Date, _ sql: any SQLDatabase) async throws -> Void
    ) {
        self.clock = clock
        self.onQueued = onQueued
    }

    /// Queues `notification` on `sql` (the caller's transaction).
    ///
    /// A type the user opted out of is recorded as `skipped` and never sent. A non-critical
    /// notification created inside the user's quiet window gets `deliver_after` = the window's
    /// end (the dispatcher checks again when it runs, since settings may change meanwhile).
    /// - Returns: the notification's id.
    @discardableResult
    public func enqueue(_ notification: OutgoingNotification, on sql: any SQLDatabase) async throws -> String {
        let id = UUID().uuidString.lowercased()
        let now = clock.now()
        let settings = try await NotificationSettingsRecord.load(userID: notification.userID, on: sql)
        let optedOut = !notification.type.isCritical && (settings?.optOut.contains(notification.type.rawValue) ?? false)
        var deliverAfter = now
        if !notification.type.isCritical, !optedOut, let settings {
            let profileZone = try await sql.first(Self.profileZone.binding(notification.userID))?
                .decode(column: "time_zone", as: String?.self)
            if let end = settings.quietHours(fallbackZone: profileZone)?.deferral(at: now) { deliverAfter = end }
        }
        var fields = notification.data
        fields[OutgoingNotification.mutableContentKey] = notification.mutableContent ? "1" : nil
        let data = String(decoding: JSONObjectWriter.object(fields), as: UTF8.self)
        try await sql.run(Self.insertNotification.binding(
            id, notification.userID, notification.app.rawValue, notification.type.rawValue, notification.title,
            notification.body, data, notification.collapseID, optedOut ? "skipped" : "queued",
            now.millisecondsSince1970, deliverAfter.millisecondsSince1970
        ))
        if !optedOut { try await onQueued(id, deliverAfter, sql) }
        return id
    }

    // Written once (`StatementText`): every domain event that notifies runs them in its transaction.
    private static let profileZone = StatementText("SELECT time_zone FROM kindred_users WHERE id = ?")
    private static let insertNotification = StatementText(
        "INSERT INTO kindred_notifications (id, user_id, app, type, title, body, data, collapse_id, state, attempts,"
            + " created_at, deliver_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)"
    )

    /// Empties the `data` of notifications (in the caller's transaction): a domain whose pushes
    /// carry a sealed copy of something it deletes (SoulMate's envelopes, once acknowledged)
    /// removes that copy too. A notification not yet sent goes out without its data.
    public static func redactData(of notificationIDs: [String], on sql: any SQLDatabase) async throws {
        guard !notificationIDs.isEmpty else { return }
        try await sql.update("kindred_notifications").set("data", to: "{}")
            .where("id", .in, notificationIDs).run()
    }
}
