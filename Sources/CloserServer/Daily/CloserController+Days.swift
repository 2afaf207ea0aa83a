import KindredServerCore
import Foundation
import CloserAPI
import KindredStore
import SQLKit

/// Today's question, on-demand assignment, one date, and the history.
extension CloserController {
    /// The couple's current daily question; with `deviceID`, the keyboxes addressed to it.
    func today(_ user: AuthenticatedUser, coupleID: String, deviceID: String? = nil) async throws -> Components.Schemas.CloserDailyQuestion {
        try Self.checkDeviceQuery(deviceID)
        let sql = database.sql
        // The couple (membership checked), its current day and that day's answers in one statement.
        let rows = try await sql.all(CloserQueries.today.binding(coupleID, user.user.id, user.user.id))
        guard let first = rows.first else { throw KindredError.coupleNotFound }
        guard try first.decode(column: "d_couple_id", as: String?.self) != nil else { throw KindredError.noQuestionAssigned }
        let day = try DayRecord(row: first, prefix: "d_")
        let answers = try rows.filter { try $0.decode(column: "a_couple_id", as: String?.self) != nil }
            .map { try AnswerRecord(row: $0, prefix: "a_") }
        let document = dayDocuments([day], answers: [day.date: answers], viewer: user.user.id)[0]
        return try await withKeyboxes(document, viewer: user.user.id, deviceID: deviceID, on: sql)
    }

    /// Assigns the current period's question now unless the couple has it; true when created.
    func assignToday(_ user: AuthenticatedUser, coupleID: String) async throws -> (Components.Schemas.CloserDailyQuestion, Bool) {
        let couple = try await Self.couple(coupleID, member: user.user.id, on: database.sql)
        let premium = try await isPremium(couple)
        let now = clock.now()
        let assigner = self.assigner
        let catalog = self.catalog
        let userID = user.user.id
        let result = try await database.transaction { sql in
            let couple = try await Self.couple(coupleID, member: userID, on: sql)
            return try await assigner.assignNow(couple, catalog: catalog, premium: premium, now: now, on: sql)
        }
        guard let result else { throw KindredError.noQuestions }
        let (day, created) = result
        return (try await dayDocuments([day], viewer: userID, on: database.sql)[0], created)
    }

    /// The daily question of one date; with `deviceID`, the keyboxes addressed to it.
    func day(_ user: AuthenticatedUser, coupleID: String, date: String, deviceID: String? = nil) async throws -> Components.Schemas.CloserDailyQuestion {
        try Self.checkDeviceQuery(deviceID)
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        guard let day = try await DayRecord.load(coupleID: coupleID, date: date, on: sql) else { throw KindredError.dayNotFound }
        return try await withKeyboxes(try await dayDocuments([day], viewer: user.user.id, on: sql)[0], viewer: user.user.id, deviceID: deviceID, on: sql)
    }

    /// Refuses a malformed `deviceId` query.
    private static func checkDeviceQuery(_ deviceID: String?) throws {
        if let deviceID, !CloserShapes.isDeviceID(deviceID) { throw KindredError.badRequest("deviceId must be 1–64 of A-Z a-z 0-9 . _ -") }
    }

    /// `day` with `releaseKeys`: the date's keyboxes for `viewer`'s device `deviceID` (unchanged without one).
    private func withKeyboxes(
        _ day: Components.Schemas.CloserDailyQuestion, viewer: String, deviceID: String?, on sql: any SQLDatabase
    ) async throws -> Components.Schemas.CloserDailyQuestion {
        guard let deviceID else { return day }
        var day = day
        day.releaseKeys = try await Self.keyboxes(coupleID: day.coupleId, scope: .day(day.date), recipient: viewer, deviceID: deviceID, on: sql)
        return day
    }

    /// Past dates, newest first, strictly before `before`.
    func history(
        _ user: AuthenticatedUser, coupleID: String, before: String?, limit: Int?
    ) async throws -> Components.Schemas.CloserHistoryPage {
        let limit = try Self.pageLimit(limit)
        if let before, !CloserSchedule.isValidKey(before) { throw KindredError.badRequest("before must be a date (YYYY-MM-DD)") }
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        var query = sql.select().columns(DayRecord.columns.map { SQLIdentifier($0) }).from("closer_days").where("couple_id", .equal, coupleID)
        if let before { query = query.where("date_key", .lessThan, before) }
        let rows = try await query.orderBy("date_key", .descending).limit(limit + 1).all()
        var days = try rows.map { try DayRecord(row: $0) }
        let more = days.count > limit
        if more { days.removeLast() }
        return .init(days: try await dayDocuments(days, viewer: user.user.id, on: sql), nextBefore: more ? days.last?.date : nil)
    }

    /// The API documents of days with their answers as `viewer` may see them.
    func dayDocuments(_ days: [DayRecord], viewer: String, on sql: any SQLDatabase) async throws -> [Components.Schemas.CloserDailyQuestion] {
        guard let coupleID = days.first?.coupleID else { return [] }
        let answers = try await AnswerRecord.load(coupleID: coupleID, dates: days.map(\.date), on: sql)
        return dayDocuments(days, answers: answers, viewer: viewer)
    }

    /// The API documents of days with the given answers (by date key) as `viewer` may see them.
    func dayDocuments(
        _ days: [DayRecord], answers: [String: [AnswerRecord]], viewer: String
    ) -> [Components.Schemas.CloserDailyQuestion] {
        let grace = Int64(settings.answerGrace.components.seconds) * 1000
        return days.map { day in
            let given = answers[day.date] ?? []
            return Components.Schemas.CloserDailyQuestion(
                coupleId: day.coupleID, date: day.date, questionId: day.questionID,
                question: catalog.questionsByID[day.questionID].map { document($0) },
                assignedAt: Date(millisecondsSince1970: day.assignedAt), expiresAt: Date(millisecondsSince1970: day.expiresAt),
                answersCloseAt: Date(millisecondsSince1970: day.expiresAt + grace),
                answers: given.map { $0.api(viewer: viewer, bothAnswered: given.count >= 2) }
            )
        }
    }

    /// A page size: 1–100, 30 when absent.
    static func pageLimit(_ limit: Int?) throws -> Int {
        guard let limit else { return 30 }
        guard (1...100).contains(limit) else { throw KindredError.badRequest("limit must be 1–100") }
        return limit
    }
}
