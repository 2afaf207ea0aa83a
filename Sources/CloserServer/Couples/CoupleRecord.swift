import KindredServerCore
import Foundation
import CloserAPI
import SQLKit

/// A row of `closer_couples`.
struct CoupleRecord: Sendable, Equatable {
    var id: String
    var userA: String
    var userB: String
    var inviteCode: String
    var createdAt: Int64
    var streakCount: Int
    var lastAnsweredAt: Int64?
    var lastAnsweredDate: String?
    var currentQuestionID: String?
    var currentDay: String?
    var activePackID: String?
    var packCursor: Int
    var timeZone: String
    var assignmentMinute: Int
    var nextAssignmentAt: Int64
    var encryptionVersion: Int
    var migrationUsers: [String: Bool]
    var wrappedCoupleKey: String?
    var kdfSalt: String?
    var kdfParams: String?

    /// Both members, inviter first.
    var userIDs: [String] { [userA, userB] }

    /// The other member.
    func partner(of userID: String) -> String { userID == userA ? userB : userA }

    /// The couple's assignment schedule.
    var schedule: CloserSchedule {
        CloserSchedule(timeZone: TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC") ?? .current, minuteOfDay: assignmentMinute)
    }

    static let columns = [
        "id", "user_a_id", "user_b_id", "invite_code", "created_at", "streak_count", "last_answered_at",
        "last_answered_date", "current_question_id", "current_day", "active_pack_id", "pack_cursor", "time_zone",
        "assignment_minute", "next_assignment_at", "encryption_version", "migration_users", "wrapped_couple_key",
        "kdf_salt", "kdf_params",
    ]

    init(
        id: String, userA: String, userB: String, inviteCode: String, createdAt: Int64, activePackID: String?,
        timeZone: String, assignmentMinute: Int, nextAssignmentAt: Int64, encryptionVersion: Int,
        wrappedCoupleKey: String?, kdfSalt: String?, kdfParams: String?
    ) {
        self.id = id
        self.userA = userA
        self.userB = userB
        self.inviteCode = inviteCode
        self.createdAt = createdAt
        streakCount = 0
        self.activePackID = activePackID
        packCursor = 0
        self.timeZone = timeZone
        self.assignmentMinute = assignmentMinute
        self.nextAssignmentAt = nextAssignmentAt
        self.encryptionVersion = encryptionVersion
        migrationUsers = [:]
        self.wrappedCoupleKey = wrappedCoupleKey
        self.kdfSalt = kdfSalt
        self.kdfParams = kdfParams
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: String.self)
        userA = try row.decode(column: "user_a_id", as: String.self)
        userB = try row.decode(column: "user_b_id", as: String.self)
        inviteCode = try row.decode(column: "invite_code", as: String.self)
        createdAt = try row.decode(column: "created_at", as: Int64.self)
        streakCount = try row.decode(column: "streak_count", as: Int.self)
        lastAnsweredAt = try row.decode(column: "last_answered_at", as: Int64?.self)
        lastAnsweredDate = try row.decode(column: "last_answered_date", as: String?.self)
        currentQuestionID = try row.decode(column: "current_question_id", as: String?.self)
        currentDay = try row.decode(column: "current_day", as: String?.self)
        activePackID = try row.decode(column: "active_pack_id", as: String?.self)
        packCursor = try row.decode(column: "pack_cursor", as: Int.self)
        timeZone = try row.decode(column: "time_zone", as: String.self)
        assignmentMinute = try row.decode(column: "assignment_minute", as: Int.self)
        nextAssignmentAt = try row.decode(column: "next_assignment_at", as: Int64.self)
        encryptionVersion = try row.decode(column: "encryption_version", as: Int.self)
        let users = try row.decode(column: "migration_users", as: String.self)
        // Almost always "{}": no decoder for that (it was a JSONDecoder per couple read).
        migrationUsers = users == "{}" ? [:] : (try? JSONDecoder().decode([String: Bool].self, from: Data(users.utf8))) ?? [:]
        wrappedCoupleKey = try row.decode(column: "wrapped_couple_key", as: String?.self)
        kdfSalt = try row.decode(column: "kdf_salt", as: String?.self)
        kdfParams = try row.decode(column: "kdf_params", as: String?.self)
    }

    /// `migration_users` as stored.
    var migrationUsersJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(migrationUsers)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Inserts the row.
    func insert(on sql: any SQLDatabase, now: Int64) async throws {
        try await sql.insert(into: "closer_couples")
            .columns(Self.columns + ["updated_at"])
            .values(
                SQLBind(id), SQLBind(userA), SQLBind(userB), SQLBind(inviteCode), SQLBind(createdAt), SQLBind(streakCount),
                SQLBind(lastAnsweredAt), SQLBind(lastAnsweredDate), SQLBind(currentQuestionID), SQLBind(currentDay),
                SQLBind(activePackID), SQLBind(packCursor), SQLBind(timeZone), SQLBind(assignmentMinute),
                SQLBind(nextAssignmentAt), SQLBind(encryptionVersion), SQLBind(migrationUsersJSON),
                SQLBind(wrappedCoupleKey), SQLBind(kdfSalt), SQLBind(kdfParams), SQLBind(now)
            )
            .run()
    }

    /// The API document.
    func api(isPremium: Bool) -> Components.Schemas.CloserCouple {
        let minute = assignmentMinute
        return Components.Schemas.CloserCouple(
            id: id, userIds: userIDs, inviteCode: inviteCode, createdAt: Date(millisecondsSince1970: createdAt),
            streakCount: streakCount, lastAnsweredAt: lastAnsweredAt.map(Date.init(millisecondsSince1970:)),
            lastAnsweredDate: lastAnsweredDate, currentQuestionId: currentQuestionID, currentDate: currentDay,
            activePackId: activePackID, timeZone: timeZone,
            assignmentTime: "\(minute / 60 < 10 ? "0" : "")\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60)",
            encryptionVersion: .init(rawValue: encryptionVersion) ?? ._2,
            encryptionMigrationUsers: .init(additionalProperties: migrationUsers),
            wrappedCoupleKey: wrappedCoupleKey, kdfSalt: kdfSalt, kdfParams: kdfParams, isPremium: isPremium
        )
    }
}
