import KindredServerCore
import Foundation
import CloserAPI
import KindredStore
import SQLKit

/// Writing and reading answers: created once in one allowed shape, then only the reveal
/// metadata changes (and, during the encryption migration, one rewrite into `enc:v1:`).
extension CloserController {
    /// Creates the caller's answer for a date.
    func createAnswer(
        _ user: AuthenticatedUser, coupleID: String, date: String, userID: String, body: Components.Schemas.CloserAnswerCreate
    ) async throws -> Components.Schemas.CloserAnswer {
        let callerID = user.user.id
        let now = nowMS
        let grace = Int64(settings.answerGrace.components.seconds) * 1000
        let events = self.events
        let (answer, both) = try await events.publisher.transaction { tx in
            let sql = tx.sql
            // Locked: when both partners answer at once, the second waits for the first to commit
            // and then sees its answer, so exactly one of them completes the day (PostgreSQL runs
            // READ COMMITTED; without the lock each would miss the other's uncommitted answer).
            var couple = try await Self.couple(coupleID, member: callerID, locking: true, on: sql)
            guard userID == callerID else { throw KindredError.notOwner }
            guard let day = try await DayRecord.load(coupleID: coupleID, date: date, on: sql) else { throw KindredError.dayNotFound }
            guard now <= day.expiresAt + grace else { throw KindredError.answersClosed }
            try AnswerShape.check(body, encryptionVersion: couple.encryptionVersion)
            let answer = AnswerRecord(coupleID: coupleID, date: date, userID: callerID, questionID: day.questionID, body: body, now: now)
            guard try await answer.insertUnlessPresent(on: sql) else { throw KindredError.answerExists }
            let partner = couple.partner(of: callerID)
            let partnerAnswered = try await sql.first(CloserQueries.answered.binding(coupleID, date, partner)) != nil
            if partnerAnswered {
                try await Self.completeDay(&couple, date: date, now: now, on: sql)
            }
            try await events.emit(
                .init(
                    type: "closer.partner_answered", notification: .closerPartnerAnswered, title: "Your partner answered",
                    body: partnerAnswered ? "You've both answered: time to reveal." : "Answer today's question to see theirs.",
                    data: ["date": date, "userId": callerID]
                ),
                coupleID: coupleID, to: partner, on: tx
            )
            return (answer, partnerAnswered)
        }
        return answer.api(viewer: callerID, bothAnswered: both)
    }

    /// Rhythm: marks the date complete and updates the streak (consecutive dates +1, a gap resets).
    static func completeDay(_ couple: inout CoupleRecord, date: String, now: Int64, on sql: any SQLDatabase) async throws {
        try await sql.run(CloserQueries.completeDay.binding(now, couple.id, date))
        guard couple.lastAnsweredDate.map({ date > $0 }) ?? true else { return }
        let consecutive = couple.lastAnsweredDate.map { Self.isDayBefore($0, date) } ?? false
        couple.streakCount = consecutive ? couple.streakCount + 1 : 1
        couple.lastAnsweredDate = date
        couple.lastAnsweredAt = now
        try await sql.run(CloserQueries.updateStreak.binding(couple.streakCount, date, now, now, couple.id))
    }

    /// Whether `earlier` is the calendar day right before `later` (both `YYYY-MM-DD`).
    static func isDayBefore(_ earlier: String, _ later: String) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        func parse(_ key: String) -> Date? {
            let parts = key.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
        }
        guard let a = parse(earlier), let b = parse(later) else { return false }
        return calendar.dateComponents([.day], from: a, to: b).day == 1
    }

    /// One member's answer as the caller may see it.
    func answer(_ user: AuthenticatedUser, coupleID: String, date: String, userID: String) async throws -> Components.Schemas.CloserAnswer {
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let answers = try await AnswerRecord.load(coupleID: coupleID, dates: [date], on: sql)[date] ?? []
        guard let answer = answers.first(where: { $0.userID == userID }) else { throw KindredError.answerNotFound }
        return answer.api(viewer: user.user.id, bothAnswered: answers.count >= 2)
    }

    /// Sets the reveal metadata of the caller's sealed answer (false → true only).
    func updateReveal(
        _ user: AuthenticatedUser, coupleID: String, date: String, userID: String, update: Components.Schemas.CloserRevealUpdate
    ) async throws -> Components.Schemas.CloserAnswer {
        let callerID = user.user.id
        let now = nowMS
        let (answer, both) = try await database.transaction { sql in
            _ = try await Self.couple(coupleID, member: callerID, on: sql)
            guard userID == callerID else { throw KindredError.notOwner }
            let answers = try await AnswerRecord.load(coupleID: coupleID, dates: [date], on: sql)[date] ?? []
            guard var answer = answers.first(where: { $0.userID == callerID }) else { throw KindredError.answerNotFound }
            guard answer.schemaVersion == 3 else { throw KindredError.invalidAnswer("only sealed answers have reveal metadata") }
            if (answer.answerKeyReleased && update.answerKeyReleased == false) || (answer.isRevealed && update.isRevealed == false) {
                throw KindredError.revealIrreversible
            }
            answer.answerKeyReleased = update.answerKeyReleased ?? answer.answerKeyReleased
            answer.isRevealed = update.isRevealed ?? answer.isRevealed
            answer.updatedAt = now
            try await sql.run(CloserQueries.releaseAndRevealAnswer.binding(
                answer.answerKeyReleased, answer.isRevealed, now, coupleID, date, callerID
            ))
            return (answer, answers.count >= 2)
        }
        return answer.api(viewer: callerID, bothAnswered: both)
    }

    /// During the migration, rewrites one of the caller's plaintext answers into `enc:v1:` (once).
    func migrateAnswer(
        _ user: AuthenticatedUser, coupleID: String, date: String, userID: String, body: Components.Schemas.CloserAnswerMigration
    ) async throws -> Components.Schemas.CloserAnswer {
        let callerID = user.user.id
        let now = nowMS
        let (answer, both) = try await database.transaction { sql in
            let couple = try await Self.couple(coupleID, member: callerID, on: sql)
            guard userID == callerID else { throw KindredError.notOwner }
            let answers = try await AnswerRecord.load(coupleID: coupleID, dates: [date], on: sql)[date] ?? []
            guard var answer = answers.first(where: { $0.userID == callerID }) else { throw KindredError.answerNotFound }
            guard couple.encryptionVersion == 1 else { throw KindredError.encryptionVersionConflict("no encryption migration is in progress") }
            if answer.migratedAt != nil { throw KindredError.answerAlreadyMigrated }
            guard answer.schemaVersion == 1 else { throw KindredError.invalidAnswer("only plaintext answers are rewritten") }
            if let problem = CloserShapes.problem(body.encryptedText, .ciphertext, field: "encryptedText") { throw KindredError.invalidAnswer(problem) }
            answer.schemaVersion = 2
            answer.text = nil
            answer.encryptedText = body.encryptedText
            answer.migratedAt = now
            answer.updatedAt = now
            try await sql.update("closer_answers").set("schema_version", to: 2).set("text", to: SQLLiteral.null)
                .set("encrypted_text", to: body.encryptedText).set("migrated_at", to: now).set("updated_at", to: now)
                .where("couple_id", .equal, coupleID).where("date_key", .equal, date).where("user_id", .equal, callerID).run()
            return (answer, answers.count >= 2)
        }
        return answer.api(viewer: callerID, bothAnswered: both)
    }
}
