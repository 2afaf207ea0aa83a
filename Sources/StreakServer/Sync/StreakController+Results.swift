import Foundation
import KindredServerCore
import KindredStore
import SQLKit
import StreakAPI

/// The sync of game results (the seed's `users/{uid}/gameResults`): batch upserts decided by the
/// latest modification, and pulls of changes in the server's change order.
extension StreakController {
    /// A checked result, as stored.
    struct ResultRecord: Sendable {
        var id: String
        var gameID: String
        var puzzle: Int
        var score: Int
        var max: Int
        var completed: Bool
        var localDate: String
        var recordedAt: Int64
        var updatedAt: Int64
        var fields: String?
        var deleted: Bool
    }

    /// Checks a batch; the first bad record refuses it, naming its index and field.
    /// - Throws: 422 `invalid_result`.
    func checkResults(_ results: [Components.Schemas.StreakSyncResult]) throws -> [ResultRecord] {
        guard (1...500).contains(results.count) else { throw KindredError.invalidResult("results must hold 1 to 500 records") }
        let latest = nowMS + StreakInput.futureSlackMS
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try results.enumerated().map { index, result in
            func bad(_ field: String, _ rule: String) -> KindredError { .invalidResult("results[\(index)].\(field) \(rule)") }
            guard StreakInput.isRecordID(result.id) else { throw bad("id", "must be 1 to 64 of A-Z, a-z, 0-9, '-', '_', '.' and ':'") }
            guard StreakInput.isSlug(result.gameId) else { throw bad("gameId", "must be 1 to 32 of a-z, 0-9 and '-', starting with a letter") }
            guard (0...2_147_483_647).contains(result.puzzle) else { throw bad("puzzle", "must be 0 to 2147483647") }
            guard (0...1_000_000).contains(result.score) else { throw bad("score", "must be 0 to 1000000") }
            guard (0...1_000_000).contains(result.max) else { throw bad("max", "must be 0 to 1000000") }
            guard let date = LocalDate(result.localDate) else { throw bad("localDate", "must be a calendar date, YYYY-MM-DD") }
            let recordedAt = result.recordedAt.millisecondsSince1970
            guard (StreakInput.earliestMS...latest).contains(recordedAt) else { throw bad("recordedAt", "must be after 2000 and not in the future") }
            let updatedAt = result.updatedAt.millisecondsSince1970
            guard (StreakInput.earliestMS...latest).contains(updatedAt) else { throw bad("updatedAt", "must be after 2000 and not in the future") }
            var fields: String?
            if let value = result.fields {
                let text = String(decoding: try encoder.encode(value), as: UTF8.self)
                guard text.utf8.count <= 2048 else { throw bad("fields", "must be at most 2048 bytes as JSON") }
                fields = text
            }
            return ResultRecord(
                id: result.id, gameID: result.gameId, puzzle: result.puzzle, score: result.score, max: result.max,
                completed: result.completed, localDate: date.description, recordedAt: recordedAt, updatedAt: updatedAt,
                fields: fields, deleted: result.deleted ?? false
            )
        }
    }

    /// Stores the records of a batch that are later than the stored ones.
    func upsertResults(_ user: AuthenticatedUser, _ results: [Components.Schemas.StreakSyncResult]) async throws
        -> Components.Schemas.StreakSyncUpsertSummary
    {
        let records = try checkResults(results)
        let userID = user.id
        let limit = settings.maxResultsPerUser
        let events = events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            var clock = try await StreakSyncClock.lock(userID, on: sql)
            let stored = try await StreakSyncPlan.stored(in: "streaksync_results", userID: userID, ids: Set(records.map(\.id)), on: sql)
            let plan = StreakSyncPlan(records.map { ($0.id, $0.updatedAt) }, stored: stored)
            guard clock.results + Int64(plan.newRows) <= Int64(limit) else { throw KindredError.tooManyResults(limit) }
            for chunk in stride(from: 0, to: plan.writes.count, by: 100) {
                let insert = sql.insert(into: "streaksync_results").columns(
                    "user_id", "id", "game_id", "puzzle", "score", "max_score", "completed", "local_date", "recorded_at",
                    "updated_at", "fields", "deleted", "change_seq"
                )
                for index in plan.writes[chunk..<min(chunk + 100, plan.writes.count)] {
                    let record = records[index]
                    clock.seq += 1
                    insert.values(
                        SQLBind(userID), SQLBind(record.id), SQLBind(record.gameID), SQLBind(record.puzzle), SQLBind(record.score),
                        SQLBind(record.max), SQLBind(record.completed), SQLBind(record.localDate), SQLBind(record.recordedAt),
                        SQLBind(record.updatedAt), SQLBind(record.fields), SQLBind(record.deleted), SQLBind(clock.seq)
                    )
                }
                try await insert.onConflict(with: ["user_id", "id"]) {
                    $0.set(excludedValueOf: "game_id").set(excludedValueOf: "puzzle").set(excludedValueOf: "score")
                        .set(excludedValueOf: "max_score").set(excludedValueOf: "completed").set(excludedValueOf: "local_date")
                        .set(excludedValueOf: "recorded_at").set(excludedValueOf: "updated_at").set(excludedValueOf: "fields")
                        .set(excludedValueOf: "deleted").set(excludedValueOf: "change_seq")
                }.run()
            }
            if plan.applied > 0 {
                clock.results += Int64(plan.newRows)
                try await clock.save(userID, on: sql)
                try await events.emit("streaksync.sync", data: ["collection": "results", "cursor": String(clock.seq)], to: [userID], on: tx)
            }
            return .init(applied: plan.applied, ignored: plan.ignored)
        }
    }

    /// The caller's results changed after `cursor`, oldest change first.
    func resultChanges(_ user: AuthenticatedUser, cursor: String?, limit: Int?) async throws -> Components.Schemas.StreakSyncResultPage {
        let after = try StreakCursor.parse(cursor)
        let limit = try StreakCursor.limit(limit, fallback: 200, max: 500)
        let rows = try await database.sql.all(StreakQueries.resultChanges.binding(user.id, after, limit + 1))
        var last = after
        var results: [Components.Schemas.StreakSyncResult] = []
        for row in rows.prefix(limit) {
            last = try row.decode(column: "change_seq", as: Int64.self)
            let fields = try row.decode(column: "fields", as: String?.self)
            results.append(
                .init(
                    id: try row.decode(column: "id", as: String.self), gameId: try row.decode(column: "game_id", as: String.self),
                    puzzle: try row.decode(column: "puzzle", as: Int.self), score: try row.decode(column: "score", as: Int.self),
                    max: try row.decode(column: "max_score", as: Int.self), completed: try row.decode(column: "completed", as: Bool.self),
                    localDate: try row.decode(column: "local_date", as: String.self),
                    recordedAt: Self.date(try row.decode(column: "recorded_at", as: Int64.self)),
                    updatedAt: Self.date(try row.decode(column: "updated_at", as: Int64.self)),
                    fields: try fields.map { try JSONDecoder().decode(Components.Schemas.StreakSyncResultFields.self, from: Data($0.utf8)) },
                    deleted: try row.decode(column: "deleted", as: Bool.self)
                )
            )
        }
        return .init(results: results, cursor: String(last), hasMore: rows.count > limit)
    }
}
