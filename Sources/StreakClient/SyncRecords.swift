import Foundation
import OpenAPIRuntime
import StreakAPI
import StreakKit

/// How results and achievements cross the contract (docs/streaksync.md, "Sync"): the columns every
/// result has, and in `fields` what only the device reads back (the game's details as JSON text, the
/// variant, the minute of the day, the zone and its offset).
enum SyncRecords {
    typealias RemoteResult = StreakAPI.Components.Schemas.StreakSyncResult
    typealias RemoteAchievement = StreakAPI.Components.Schemas.StreakSyncAchievement

    /// The wire record of `result`, changed at `updatedAt`.
    static func remote(_ result: GameResult, updatedAt: Date) throws(StreakClientError) -> RemoteResult {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let details = try? encoder.encode(result.details) else {
            throw .invalidInput("result \(result.id): its details cannot be encoded")
        }
        var values: [String: (any Sendable)?] = [
            "details": String(decoding: details, as: UTF8.self), "minuteOfDay": result.minuteOfDay,
            "utcOffsetSeconds": result.utcOffsetSeconds, "timeZone": result.timeZoneIdentifier,
        ]
        if let variant = result.variant { values["variant"] = variant }
        let fields: OpenAPIObjectContainer
        do {
            fields = try OpenAPIObjectContainer(unvalidatedValue: values)
        } catch {
            throw .invalidInput("result \(result.id): \(error)")
        }
        return RemoteResult(
            id: result.id.rawValue, gameId: result.game.rawValue, puzzle: result.puzzle ?? 0, score: result.score,
            max: result.maxScore, completed: result.completed, localDate: result.day.description,
            recordedAt: result.recordedAt, updatedAt: updatedAt, fields: .init(additionalProperties: fields), deleted: nil)
    }

    /// The result a wire record holds.
    /// - Throws: `.invalidServerData` when it is not one this device wrote (a missing field, an id
    ///   that does not match the game, puzzle and day).
    static func synced(_ remote: RemoteResult) throws(StreakClientError) -> SyncedResult {
        func bad(_ reason: String) -> StreakClientError { .invalidServerData("result \(remote.id): \(reason)") }
        guard let day = LocalDay(remote.localDate) else { throw bad("localDate is not a date") }
        let values = remote.fields?.additionalProperties.value ?? [:]
        func integer(_ key: String) -> Int? {
            switch values[key] ?? nil {
            case let value as Int: value
            case let value as Double: Int(exactly: value)
            default: nil
            }
        }
        guard let detailsText = values["details"] as? String,
            let details = try? JSONDecoder().decode(GameDetails.self, from: Data(detailsText.utf8))
        else { throw bad("fields.details is missing or not a game's details") }
        guard let minute = integer("minuteOfDay"), let offset = integer("utcOffsetSeconds"),
            let zone = values["timeZone"] as? String
        else { throw bad("fields.minuteOfDay, utcOffsetSeconds or timeZone is missing") }
        let variant = values["variant"] as? String
        // A share without a puzzle number is sent as puzzle 0; its id says so (`game:-…`).
        let puzzle: Int? = remote.id.hasPrefix("\(remote.gameId):-") ? nil : remote.puzzle
        let share = ParsedShare(
            game: GameID(rawValue: remote.gameId), puzzle: puzzle, variant: variant, score: remote.score, maxScore: remote.max,
            completed: remote.completed, details: details)
        let result = GameResult(
            share: share, recordedAt: remote.recordedAt, day: day, minuteOfDay: minute, utcOffsetSeconds: offset,
            timeZoneIdentifier: zone)
        guard result.id.rawValue == remote.id else { throw bad("the id does not match the game, puzzle and day") }
        return SyncedResult(result: result, updatedAt: remote.updatedAt, deleted: remote.deleted ?? false)
    }

    /// The wire record of a category's progress: its highest tier and when it was reached.
    static func remote(_ progress: AchievementProgress, updatedAt: Date) -> RemoteAchievement {
        RemoteAchievement(
            id: progress.id.rawValue, category: progress.category.rawValue, tier: progress.tier?.rawValue ?? 0,
            progress: progress.value, unlockedAt: progress.unlocks.last?.unlockedAt, updatedAt: updatedAt)
    }

    /// The progress a wire record holds: its tier and every lower one (reached no later than it).
    static func progress(_ remote: RemoteAchievement) throws(StreakClientError) -> AchievementProgress {
        guard let category = AchievementCategory(rawValue: remote.category), remote.id == category.id.rawValue else {
            throw .invalidServerData("achievement \(remote.id): unknown category \(remote.category)")
        }
        var unlocks: [TierUnlock] = []
        if remote.tier > 0 {
            guard let top = AchievementTier(rawValue: remote.tier), let date = remote.unlockedAt else {
                throw .invalidServerData("achievement \(remote.id): tier \(remote.tier) without a date, or unknown")
            }
            unlocks = AchievementTier.allCases.filter { $0 <= top }.map { TierUnlock(category: category, tier: $0, unlockedAt: date) }
        }
        return AchievementProgress(category: category, value: remote.progress, unlocks: unlocks)
    }
}
