import KindredServerCore
import Foundation
import KindredAPI
import KindredStore
import SQLKit

/// Applies provider events and syncs to the plan history: idempotently by provider event id
/// (the event's record is written in the same transaction as its effect), recomputing each
/// touched user's state and publishing entitlement changes on `user:<id>` in that transaction.
struct BillingApplier: Sendable {
    let database: Database
    let ledger: BillingLedger
    let realtime: RealtimePublisher
    let clock: any WallClock
    let revenueCat: RevenueCatInterpreter
    let stripe: StripeInterpreter

    /// What applying an event did.
    enum Outcome: Sendable, Equatable {
        /// Applied now; the recorded outcome (`applied`, `ignored: …`).
        case applied(String)
        /// Applied before (a duplicate delivery or a re-driven item): nothing done.
        case duplicate
    }

    /// Creates the applier with interpreters on `settings`.
    init(database: Database, settings: BillingSettings, realtime: RealtimePublisher, clock: any WallClock) {
        self.database = database
        self.ledger = BillingLedger(settings: settings)
        self.realtime = realtime
        self.clock = clock
        let newID: @Sendable () -> String = { UUID().uuidString.lowercased() }
        revenueCat = RevenueCatInterpreter(settings: settings, newID: newID)
        stripe = StripeInterpreter(settings: settings, newID: newID)
    }

    /// The realtime event type of an entitlement change.
    static let eventType = "billing.entitlements"

    /// Applies one inbox envelope exactly once, in a transaction of its own.
    /// - Throws: `BillingApplyError`, decoding and database errors (the queue retries).
    func apply(_ envelope: BillingInbox.Envelope) async throws -> Outcome {
        let decoded = try Self.decode(envelope)
        let now = clock.now()
        return try await realtime.transaction { transaction in
            try await apply(envelope, decoded: decoded, now: now, on: transaction)
        }
    }

    /// Decodes an envelope's provider event.
    /// - Throws: `DecodingError` when the body is not the provider's event.
    static func decode(_ envelope: BillingInbox.Envelope) throws -> DecodedEvent {
        let body = Data(envelope.body.utf8)
        switch envelope.provider {
        case .revenuecat:
            let event = try JSONDecoder().decode(RevenueCatWebhookBody.self, from: body).event
            return DecodedEvent(type: event.type, time: event.eventTimestampMs, revenueCat: event)
        case .stripe:
            let event = try JSONDecoder().decode(StripeEvent.self, from: body)
            return DecodedEvent(type: event.type, time: event.created * 1000, stripe: event)
        }
    }

    /// Applies a decoded event inside `transaction`, unless its record shows it was applied before.
    func apply(
        _ envelope: BillingInbox.Envelope, decoded: DecodedEvent, now: Date, on transaction: RealtimeTransaction
    ) async throws -> Outcome {
        let (outcome, effect) = try await write(envelope, decoded: decoded, now: now, on: transaction.sql)
        if let effect {
            _ = try await recompute(effect.touched, appended: [:], now: now, on: transaction)
        }
        return outcome
    }

    /// Records a decoded event and writes its effect inside the caller's transaction, unless its
    /// record shows it was applied before; its users are left to recompute.
    /// - Returns: the outcome, and the effect when it was written now.
    func write(
        _ envelope: BillingInbox.Envelope, decoded: DecodedEvent, now: Date, on sql: any SQLDatabase
    ) async throws -> (Outcome, BillingEffect?) {
        let nowMs = now.millisecondsSince1970
        // The effect is read first (nothing written yet), then the event's record is written
        // with its outcome: a conflict means it was applied before, and nothing is written.
        let effect: BillingEffect
        if let event = decoded.revenueCat {
            effect = try await revenueCat.effect(of: event, now: nowMs, on: sql)
        } else if let event = decoded.stripe {
            effect = try await stripe.effect(of: event, now: nowMs, on: sql)
        } else {
            effect = .ignored("no event")
        }
        if let lane = sql as? BillingLaneSQL {
            // In a lane the record is deferred with the effect; the lane knows which events were
            // recorded before it began.
            let record = BillingLaneMemo.EventRecord(
                provider: envelope.provider, eventID: envelope.eventID, type: String(decoded.type.prefix(100)),
                userID: effect.userID, outcome: effect.outcome, eventTime: decoded.time, appliedAt: nowMs
            )
            guard lane.memo.record(record) else { return (.duplicate, nil) }
            _ = try await write(effect, now: now, on: sql)
            return (.applied(effect.outcome), effect)
        }
        let recorded = try await sql.insert(into: "kindred_billing_events")
            .columns("provider", "event_id", "type", "user_id", "outcome", "event_time", "applied_at")
            .values(
                SQLBind(envelope.provider.rawValue), SQLBind(envelope.eventID), SQLBind(String(decoded.type.prefix(100))),
                SQLBind(effect.userID), SQLBind(effect.outcome), SQLBind(decoded.time), SQLBind(nowMs)
            )
            .ignoringConflicts().returning("event_id").all()
        guard !recorded.isEmpty else { return (.duplicate, nil) }
        _ = try await write(effect, now: now, on: sql)
        return (.applied(effect.outcome), effect)
    }

    /// Writes an effect's links and entries, recomputes its users and publishes their changes,
    /// inside `transaction`.
    /// - Returns: each touched user's recomputation.
    func commit(_ effect: BillingEffect, now: Date, on transaction: RealtimeTransaction) async throws -> [String: BillingLedger.Recomputed] {
        let appended = try await write(effect, now: now, on: transaction.sql)
        return try await recompute(effect.touched, appended: appended, now: now, on: transaction)
    }

    /// Writes an effect's links, transfers and entries (its users locked first), inside the
    /// caller's transaction, without recomputing anyone.
    /// - Returns: how many entries were appended, per user.
    func write(_ effect: BillingEffect, now: Date, on sql: any SQLDatabase) async throws -> [String: Int] {
        let nowMs = now.millisecondsSince1970
        try await BillingLedger.lock(effect.touched.keys.filter { !effect.locked.contains($0) }, on: sql)
        for link in effect.links {
            try await BillingLedger.link(provider: link.provider, externalID: link.externalID, to: link.userID, now: nowMs, on: sql)
        }
        for transfer in effect.transfers {
            try await BillingLedger.remember(transfer, now: nowMs, on: sql)
        }
        var appended: [String: Int] = [:]
        for entry in effect.appends {
            if try await BillingLedger.append(entry, on: sql) { appended[entry.userID, default: 0] += 1 }
        }
        return appended
    }

    /// Recomputes `touched` users (in id order) and publishes the changed ones' entitlements,
    /// inside `transaction`.
    /// - Returns: each user's recomputation.
    func recompute(
        _ touched: [String: AppID], appended: [String: Int], now: Date, on transaction: RealtimeTransaction
    ) async throws -> [String: BillingLedger.Recomputed] {
        var results: [String: BillingLedger.Recomputed] = [:]
        let users = touched.keys.sorted()
        // Every user's heads and record in two reads, however many users the lane touched.
        let plans = try await BillingLedger.current(of: users, on: transaction.sql)
        let records = try await BillingLedger.records(of: users, on: transaction.sql)
        for user in users {
            guard let app = touched[user] else { continue }
            var recomputed = try await ledger.recomputation(
                userID: user, app: app, now: now, plans: plans[user] ?? [], before: records[user], on: transaction.sql
            )
            recomputed.appended = appended[user] ?? 0
            results[user] = recomputed
        }
        // The changed records in one statement, then the changed entitlements published.
        try await BillingLedger.save(users.compactMap { results[$0] }.filter(\.needsSave).map(\.after), on: transaction.sql)
        var changes: [(channel: RealtimeChannel, type: String, json: String)] = []
        for user in users {
            guard let recomputed = results[user], let app = touched[user], recomputed.changed else { continue }
            let payload = BillingRepresentation.entitlements(
                app: app, snapshot: recomputed.snapshot, settings: ledger.settings.app(app)
            )
            changes.append((.user(user), Self.eventType, try RealtimePublisher.json(payload)))
        }
        try await realtime.publish(changes, on: transaction)
        return results
    }

    /// A decoded event of either provider.
    struct DecodedEvent: Sendable {
        var type: String
        var time: Int64
        var revenueCat: RevenueCatEvent?
        var stripe: StripeEvent?
    }
}
