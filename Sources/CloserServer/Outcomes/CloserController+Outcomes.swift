import CloserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The 30/60/90-day check-ins (the seed's `submitOutcomeCallable`): `day_0`, `day_30`,
/// `day_60` and `day_90`, counted in the couple's zone from its creation date. Each member
/// writes an `enc:v1:` ciphertext under the couple key once per check-in, only through the
/// server, and both members read both answers once written (the seed has no reveal-together
/// rule for check-ins). Writes are published on the couple's channel as
/// `closer.outcome_submitted` (ids only).
extension CloserController {
    /// The longest answers ciphertext.
    static let outcomeAnswersLimit = 16_384

    /// The couple's four check-ins with the answers written so far.
    /// - Throws: 404 `couple_not_found`.
    func outcomes(_ user: AuthenticatedUser, coupleID: String) async throws -> Components.Schemas.CloserOutcomeList {
        let sql = database.sql
        let couple = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let records = try await sql.select().columns(OutcomeRecord.columns).from("closer_outcomes").where("couple_id", .equal, coupleID)
            .all().map(OutcomeRecord.init(row:))
        let calendar = OutcomeCalendar(timeZone: couple.timeZone, createdAtMS: couple.createdAt)
        let now = clock.now()
        return .init(
            coupleId: coupleID, timeZone: couple.timeZone,
            checkIns: OutcomeKey.allCases.map { Self.checkIn($0, calendar: calendar, records: records, couple: couple, now: now) }
        )
    }

    /// Writes the caller's answers to `key`.
    /// - Throws: 400 `invalid_outcome_key` / `invalid_outcome`, 413 `outcome_too_large`,
    ///   409 `outcome_not_due` / `outcome_exists`, 404 `couple_not_found`.
    func submitOutcome(_ user: AuthenticatedUser, coupleID: String, key: String, answers: String) async throws -> Components.Schemas.CloserOutcomeCheckIn {
        guard let outcomeKey = OutcomeKey(rawValue: key) else { throw KindredError.invalidOutcomeKey }
        guard answers.utf8.count <= Self.outcomeAnswersLimit else { throw KindredError.outcomeTooLarge(Self.outcomeAnswersLimit) }
        if let problem = CloserShapes.problem(answers, .ciphertext, field: "answers") { throw KindredError.invalidOutcome(problem) }
        let callerID = user.user.id
        let now = clock.now()
        let events = self.events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, on: sql)
            let calendar = OutcomeCalendar(timeZone: couple.timeZone, createdAtMS: couple.createdAt)
            guard now >= calendar.opensAt(outcomeKey) else { throw KindredError.outcomeNotDue(calendar.date(outcomeKey)) }
            let inserted = try await sql.insert(into: "closer_outcomes").columns(OutcomeRecord.columns)
                .values(SQLBind(coupleID), SQLBind(callerID), SQLBind(key), SQLBind(answers), SQLBind(now.millisecondsSince1970))
                .ignoringConflicts().returning("day_key").all()
            guard !inserted.isEmpty else { throw KindredError.outcomeExists }
            try await events.emit(
                .init(type: "closer.outcome_submitted", notification: nil, title: "", body: "", data: ["key": key, "userId": callerID]),
                coupleID: coupleID, to: nil, on: tx
            )
            let records = try await sql.select().columns(OutcomeRecord.columns).from("closer_outcomes").where("couple_id", .equal, coupleID)
                .where("day_key", .equal, key).all().map(OutcomeRecord.init(row:))
            return Self.checkIn(outcomeKey, calendar: calendar, records: records, couple: couple, now: now)
        }
    }

    /// One check-in's document: its date, when it opens, and the answers written (inviter first).
    static func checkIn(
        _ key: OutcomeKey, calendar: OutcomeCalendar, records: [OutcomeRecord], couple: CoupleRecord, now: Date
    ) -> Components.Schemas.CloserOutcomeCheckIn {
        let entries = couple.userIDs.compactMap { member in records.first { $0.key == key.rawValue && $0.userID == member } }
        return .init(
            key: key.rawValue, date: calendar.date(key), opensAt: calendar.opensAt(key), answerable: now >= calendar.opensAt(key),
            entries: entries.map(\.document)
        )
    }
}
