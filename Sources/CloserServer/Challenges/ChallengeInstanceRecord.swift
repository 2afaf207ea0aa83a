import CloserAPI
import Foundation
import KindredServerCore
import SQLKit

/// A row of `closer_challenge_instances`.
struct ChallengeInstanceRecord: Sendable, Equatable {
    /// `active`, `completed` or `abandoned`.
    enum Status: String, Sendable {
        case active, completed, abandoned
    }

    var id: String
    var coupleID: String
    var challengeID: String
    var title: String
    var steps: [String]
    var status: Status
    var startDate: String
    var timeZone: String
    var startedBy: String
    var endedBy: String?
    var remindAt: Int64?
    var createdAt: Int64
    var updatedAt: Int64
    var completedAt: Int64?

    var dayCount: Int { steps.count }

    static let columns = [
        "id", "couple_id", "challenge_id", "title", "steps", "status", "start_date", "time_zone", "started_by", "ended_by",
        "remind_at", "created_at", "updated_at", "completed_at",
    ]

    /// A new active instance of `challenge`, day 1 today in `timeZone`, reminded at `reminderHour`:00 local.
    init(challenge: ChallengesDocument.Challenge, coupleID: String, startedBy: String, timeZone: String, now: Date,
         reminderHour: Int = ChallengeCalendar.defaultReminderHour) {
        let zone = ChallengeCalendar.zone(timeZone)
        let start = ChallengeCalendar.key(of: now, in: zone)
        id = RandomID.make()
        self.coupleID = coupleID
        challengeID = challenge.id
        title = challenge.title
        steps = challenge.days
        status = .active
        startDate = start
        self.timeZone = timeZone
        self.startedBy = startedBy
        let next = ChallengeCalendar.nextReminder(after: now, in: zone, hour: reminderHour)
        let nextDay = ChallengeCalendar.dayNumber(start: start, key: ChallengeCalendar.key(of: next, in: zone)) ?? Int.max
        remindAt = nextDay <= challenge.days.count ? next.millisecondsSince1970 : nil
        createdAt = now.millisecondsSince1970
        updatedAt = createdAt
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: String.self)
        coupleID = try row.decode(column: "couple_id", as: String.self)
        challengeID = try row.decode(column: "challenge_id", as: String.self)
        title = try row.decode(column: "title", as: String.self)
        steps = (try? JSONDecoder().decode([String].self, from: Data(try row.decode(column: "steps", as: String.self).utf8))) ?? []
        status = Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .abandoned
        startDate = try row.decode(column: "start_date", as: String.self)
        timeZone = try row.decode(column: "time_zone", as: String.self)
        startedBy = try row.decode(column: "started_by", as: String.self)
        endedBy = try row.decode(column: "ended_by", as: String?.self)
        remindAt = try row.decode(column: "remind_at", as: Int64?.self)
        createdAt = try row.decode(column: "created_at", as: Int64.self)
        updatedAt = try row.decode(column: "updated_at", as: Int64.self)
        completedAt = try row.decode(column: "completed_at", as: Int64?.self)
    }

    /// The steps as stored (a JSON array of strings).
    var stepsJSON: String {
        String(decoding: (try? JSONEncoder().encode(steps)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// Today's day number in the instance's zone (below 1 never happens: day 1 is the join day).
    func today(now: Date) -> Int {
        ChallengeCalendar.dayNumber(start: startDate, key: ChallengeCalendar.key(of: now, in: ChallengeCalendar.zone(timeZone))) ?? 1
    }
}

/// An instance with the days its partners marked, and what both of them see.
struct ChallengeInstanceState: Sendable {
    var instance: ChallengeInstanceRecord
    /// (user id, day) pairs marked done.
    var done: [(userID: String, day: Int)]

    /// Whether `userID` marked `day`.
    func isDone(_ userID: String, day: Int) -> Bool {
        done.contains { $0.userID == userID && $0.day == day }
    }

    /// Whether both `members` marked every day.
    func isComplete(members: [String]) -> Bool {
        members.allSatisfy { member in (1...max(1, instance.dayCount)).allSatisfy { isDone(member, day: $0) } }
    }

    /// The API document: every day with who did it, and each member's count.
    func document(members: [String], now: Date) -> Components.Schemas.CloserChallengeInstance {
        let today = instance.today(now: now)
        let days = instance.steps.enumerated().map { index, step in
            Components.Schemas.CloserChallengeDay(
                day: index + 1, step: step, doneBy: members.filter { isDone($0, day: index + 1) }
            )
        }
        let partners = members.map { member in
            let count = done.filter { $0.userID == member && (1..<instance.dayCount + 1).contains($0.day) }.count
            return Components.Schemas.CloserChallengeProgress(userId: member, doneCount: count, finished: count == instance.dayCount)
        }
        let showsToday = instance.status == .active && (1..<instance.dayCount + 1).contains(today)
        return .init(
            id: instance.id, coupleId: instance.coupleID, challengeId: instance.challengeID, title: instance.title,
            status: .init(rawValue: instance.status.rawValue) ?? .abandoned, startDate: instance.startDate, timeZone: instance.timeZone,
            dayCount: instance.dayCount, currentDay: min(max(today, 1), instance.dayCount),
            todayStep: showsToday ? instance.steps[today - 1] : nil, startedBy: instance.startedBy, endedBy: instance.endedBy,
            createdAt: Date(millisecondsSince1970: instance.createdAt), updatedAt: Date(millisecondsSince1970: instance.updatedAt),
            completedAt: instance.completedAt.map { Date(millisecondsSince1970: $0) }, days: days, partners: partners
        )
    }
}
