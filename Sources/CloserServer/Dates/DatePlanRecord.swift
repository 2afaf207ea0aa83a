import CloserAPI
import Foundation
import KindredServerCore
import SQLKit

/// A row of `closer_date_plans`.
struct DatePlanRecord: Sendable, Equatable {
    var id: String
    var coupleID: String
    var matchID: String?
    var ideaID: String?
    var title: String
    var notes: String
    var status: String
    var date: String?
    var time: String?
    var timeZone: String
    var createdBy: String
    var updatedBy: String
    var revision: Int
    var createdAt: Int64
    var updatedAt: Int64
    var completedAt: Int64?

    /// The columns, in the order `init(row:)` reads them.
    static let columns = [
        "id", "couple_id", "match_id", "idea_id", "title", "notes", "status", "scheduled_date", "scheduled_time", "time_zone",
        "created_by", "updated_by", "revision", "created_at", "updated_at", "completed_at",
    ]

    /// The statuses, in their order.
    static let statuses = ["draft", "planned", "completed"]

    /// The status changes a plan may make (besides staying as it is).
    static let transitions: Set<String> = ["draft>planned", "planned>draft", "planned>completed"]

    init(
        id: String, coupleID: String, matchID: String?, ideaID: String?, title: String, notes: String, status: String, date: String?,
        time: String?, timeZone: String, createdBy: String, createdAt: Int64
    ) {
        self.id = id
        self.coupleID = coupleID
        self.matchID = matchID
        self.ideaID = ideaID
        self.title = title
        self.notes = notes
        self.status = status
        self.date = date
        self.time = time
        self.timeZone = timeZone
        self.createdBy = createdBy
        updatedBy = createdBy
        revision = 1
        self.createdAt = createdAt
        updatedAt = createdAt
        completedAt = nil
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: String.self)
        coupleID = try row.decode(column: "couple_id", as: String.self)
        matchID = try row.decode(column: "match_id", as: String?.self)
        ideaID = try row.decode(column: "idea_id", as: String?.self)
        title = try row.decode(column: "title", as: String.self)
        notes = try row.decode(column: "notes", as: String.self)
        status = try row.decode(column: "status", as: String.self)
        date = try row.decode(column: "scheduled_date", as: String?.self)
        time = try row.decode(column: "scheduled_time", as: String?.self)
        timeZone = try row.decode(column: "time_zone", as: String.self)
        createdBy = try row.decode(column: "created_by", as: String.self)
        updatedBy = try row.decode(column: "updated_by", as: String.self)
        revision = try row.decode(column: "revision", as: Int.self)
        createdAt = try row.decode(column: "created_at", as: Int64.self)
        updatedAt = try row.decode(column: "updated_at", as: Int64.self)
        completedAt = try row.decode(column: "completed_at", as: Int64?.self)
    }

    /// The values bound for `columns`.
    var binds: [any Encodable & Sendable] {
        [id, coupleID, matchID, ideaID, title, notes, status, date, time, timeZone, createdBy, updatedBy, revision, createdAt, updatedAt, completedAt]
    }

    /// The instant of `date` and `time` (midnight without a time) in `timeZone`.
    var startsAt: Date? {
        guard let date, let day = Self.day(date), let zone = TimeZone(identifier: timeZone) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var components = day
        let clock = time.flatMap(Self.clock) ?? (0, 0)
        components.hour = clock.hour
        components.minute = clock.minute
        return calendar.date(from: components)
    }

    /// The API document, with `history` when given.
    func document(history: [Components.Schemas.CloserDatePlanEvent]? = nil) -> Components.Schemas.CloserDatePlan {
        .init(
            id: id, coupleId: coupleID, matchId: matchID, ideaId: ideaID, title: title, notes: notes, status: status, date: date, time: time,
            timeZone: timeZone, startsAt: startsAt, createdBy: createdBy, updatedBy: updatedBy, revision: revision,
            createdAt: Date(millisecondsSince1970: createdAt), updatedAt: Date(millisecondsSince1970: updatedAt),
            completedAt: completedAt.map { Date(millisecondsSince1970: $0) }, history: history
        )
    }

    /// The components of a real calendar date `YYYY-MM-DD` (years 2000–2200), or nil.
    static func day(_ text: String) -> DateComponents? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (2000...2200).contains(year)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar) else { return nil }
        return components
    }

    /// The hour and minute of `HH:MM`, or nil.
    static func clock(_ text: String) -> (hour: Int, minute: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.utf8.count == 5, parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return nil }
        return (hour, minute)
    }
}
