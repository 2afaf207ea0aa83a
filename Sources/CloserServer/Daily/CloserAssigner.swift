import KindredServerCore
import Foundation
import KindredStore
import SQLKit

/// Assigns daily questions: in pages for the scheduled job, and for one couple on demand.
///
/// A couple is due when its `next_assignment_at` has passed. It gets the question of the period
/// containing "now" (date key = the local date of the period's start, `expiresAt` = the next
/// assignment), chosen by `QuestionOrder` from its active pack (a premium pack only while the
/// couple is premium; otherwise the catalog's default free pack). Re-running is a no-op: a day
/// that exists is kept, and the couple's next time moves past it.
struct CloserAssigner: Sendable {
    let settings: CloserSettings
    let entitlements: any CloserEntitlements

    /// One assignment decided for a couple.
    struct Decision: Sendable {
        var day: DayRecord
        var packID: String
        var cursor: Int
    }

    /// Assigns every due couple of one page (the `limit` most overdue) and returns how many it handled.
    func assignDuePage(catalog: CloserCatalog, now: Date, limit: Int, database: Database) async throws -> Int {
        let nowMS = now.millisecondsSince1970
        let rows = try await database.sql.select().columns(CoupleRecord.columns.map { SQLIdentifier($0) }).from("closer_couples")
            .where("next_assignment_at", .lessThanOrEqual, nowMS).orderBy("next_assignment_at").limit(limit).all()
        let couples = try rows.map(CoupleRecord.init(row:))
        guard !couples.isEmpty else { return 0 }
        let premium = try await entitlements.premiumCouples(Dictionary(couples.map { ($0.id, $0.userIDs) }, uniquingKeysWith: { a, _ in a }))
        var periods: [CloserSchedule: (start: CloserSchedule.Instant, end: CloserSchedule.Instant, remind: Int64)] = [:]
        var decisions: [(CoupleRecord, Decision)] = []
        for couple in couples {
            let schedule = couple.schedule
            let period: (start: CloserSchedule.Instant, end: CloserSchedule.Instant, remind: Int64)
            if let cached = periods[schedule] {
                period = cached
            } else {
                let (start, end) = schedule.period(containing: now)
                let remind = CloserSchedule(timeZone: schedule.timeZone, minuteOfDay: settings.reminderMinute).next(after: start.date)
                period = (start, end, remind.date.millisecondsSince1970)
                periods[schedule] = period
            }
            guard let decision = decide(couple, catalog: catalog, premium: premium.contains(couple.id), period: period, now: nowMS) else {
                continue
            }
            decisions.append((couple, decision))
        }
        let decided = Set(decisions.map(\.0.id))
        let skipped = couples.filter { !decided.contains($0.id) }
            .map { ($0.id, periods[$0.schedule]?.end.date.millisecondsSince1970 ?? nowMS + 86_400_000) }
        let chosen = decisions
        try await database.transaction { sql in
            try await Self.store(chosen, on: sql, now: nowMS)
            // Couples with nothing to assign (an empty catalog) wait for their next period.
            for (id, next) in skipped {
                try await sql.update("closer_couples").set("next_assignment_at", to: next).where("id", .equal, id).run()
            }
        }
        return couples.count
    }

    /// Assigns the current period's question to one couple unless it has one (on demand),
    /// inside the caller's transaction.
    /// - Returns: the current day and whether it was created now.
    func assignNow(_ couple: CoupleRecord, catalog: CloserCatalog, premium: Bool, now: Date, on sql: any SQLDatabase) async throws -> (DayRecord, Bool)? {
        let nowMS = now.millisecondsSince1970
        let (start, end) = couple.schedule.period(containing: now)
        if let existing = try await DayRecord.load(coupleID: couple.id, date: start.key, on: sql) { return (existing, false) }
        let remind = CloserSchedule(timeZone: couple.schedule.timeZone, minuteOfDay: settings.reminderMinute).next(after: start.date)
        guard let decision = decide(couple, catalog: catalog, premium: premium, period: (start, end, remind.date.millisecondsSince1970), now: nowMS) else {
            return nil
        }
        try await Self.store([(couple, decision)], on: sql, now: nowMS)
        return (decision.day, true)
    }

    /// The question for the couple's period, or nil when no pack has an active question.
    func decide(
        _ couple: CoupleRecord, catalog: CloserCatalog, premium: Bool,
        period: (start: CloserSchedule.Instant, end: CloserSchedule.Instant, remind: Int64), now: Int64
    ) -> Decision? {
        var packID = couple.activePackID
        var cursor = couple.packCursor
        if let id = packID, let pack = catalog.packsByID[id], !pack.activeQuestions.isEmpty, premium || !pack.isPremium {
            // The couple's own pack.
        } else {
            guard let fallback = catalog.defaultPackID else { return nil }
            if fallback != packID { cursor = 0 }
            packID = fallback
        }
        guard let packID, let pack = catalog.packsByID[packID],
            let question = QuestionOrder.question(at: cursor, coupleID: couple.id, pack: pack)
        else { return nil }
        let expires = period.end.date.millisecondsSince1970
        let remind = period.remind < expires ? period.remind : nil
        let day = DayRecord(
            coupleID: couple.id, date: period.start.key, questionID: question.id, assignedAt: now, expiresAt: expires,
            remindAt: remind
        )
        return Decision(day: day, packID: packID, cursor: cursor + 1)
    }

    /// Inserts the days (keeping any that exist) and moves each couple to its new question and next time.
    static func store(_ decisions: [(CoupleRecord, Decision)], on sql: any SQLDatabase, now: Int64) async throws {
        guard !decisions.isEmpty else { return }
        // Days that already exist win: their couples keep their question and cursor.
        let existing = try await existingDays(decisions.map(\.1.day), on: sql)
        var insert = sql.insert(into: "closer_days").columns(DayRecord.columns)
        var fresh = 0
        for (_, decision) in decisions where existing[decision.day.coupleID + "|" + decision.day.date] == nil {
            insert = insert.values(decision.day.values)
            fresh += 1
        }
        if fresh > 0 { try await insert.ignoringConflicts().run() }
        var rows: [SQLQueryString] = []
        for (couple, decision) in decisions {
            let kept = existing[decision.day.coupleID + "|" + decision.day.date]
            let questionID = kept ?? decision.day.questionID
            let cursor = kept == nil ? decision.cursor : couple.packCursor
            let pack = kept == nil ? decision.packID : (couple.activePackID ?? decision.packID)
            rows.append(
                "(\(bind: couple.id), \(bind: questionID), \(bind: decision.day.date), \(bind: pack), \(bind: cursor), \(bind: decision.day.expiresAt), \(bind: now))"
            )
        }
        let update: SQLQueryString = """
            UPDATE closer_couples SET current_question_id = v.column2, current_day = v.column3, active_pack_id = v.column4, \
            pack_cursor = v.column5, next_assignment_at = v.column6, updated_at = v.column7 \
            FROM (VALUES \(rows.joined(separator: ", "))) AS v WHERE closer_couples.id = v.column1
            """
        try await sql.raw(update).run()
    }

    /// The question ids of the days among `days` that already exist, keyed `coupleID|date`.
    private static func existingDays(_ days: [DayRecord], on sql: any SQLDatabase) async throws -> [String: String] {
        let rows = try await sql.select().column("couple_id").column("date_key").column("question_id").from("closer_days")
            .where("couple_id", .in, days.map(\.coupleID)).where("date_key", .in, Array(Set(days.map(\.date)))).all()
        var result: [String: String] = [:]
        for row in rows {
            let key = try row.decode(column: "couple_id", as: String.self) + "|" + row.decode(column: "date_key", as: String.self)
            result[key] = try row.decode(column: "question_id", as: String.self)
        }
        return result
    }
}
