import CloserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// Date plans (the seed's `date_plans`): draft → planned → completed, from a match or written
/// freely, editable by both partners, every revision kept in `closer_date_plan_events`.
/// Titles and notes are plaintext under the couple, as in the seed.
extension CloserController {
    /// The longest title and notes.
    static let planTitleLimit = 200
    static let planNotesLimit = 2000

    /// Creates a plan: `planned` when it has a date, `draft` otherwise.
    /// - Throws: 400 `invalid_date_plan`, 404 `date_match_not_found`, 404 `couple_not_found`.
    func createDatePlan(
        _ user: AuthenticatedUser, coupleID: String, body: Components.Schemas.CloserDatePlanCreate
    ) async throws -> Components.Schemas.CloserDatePlan {
        let callerID = user.user.id
        let now = nowMS
        let notes = try Self.planNotes(body.notes ?? "")
        let (date, time) = try Self.planSchedule(date: body.date, time: body.time, current: (nil, nil))
        let title = try body.title.map(Self.planTitle)
        if body.matchId == nil, title == nil { throw KindredError.invalidDatePlan("a plan needs a title or a matchId") }
        let ideas = dateIdeas
        let events = self.events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: sql)
            var ideaID: String?
            if let matchID = body.matchId {
                let row = try await sql.select().column("idea_id").from("closer_date_matches")
                    .where("id", .equal, matchID).where("couple_id", .equal, coupleID).first()
                guard let row else { throw KindredError.dateMatchNotFound }
                ideaID = try row.decode(column: "idea_id", as: String.self)
            }
            let plan = DatePlanRecord(
                id: RandomID.make(), coupleID: coupleID, matchID: body.matchId, ideaID: ideaID,
                title: title ?? ideaID.flatMap { ideas.ideasByID[$0]?.title } ?? "Our date", notes: notes,
                status: date == nil ? "draft" : "planned", date: date, time: time, timeZone: couple.timeZone, createdBy: callerID, createdAt: now
            )
            try await sql.insert(into: "closer_date_plans").columns(DatePlanRecord.columns).values(plan.binds.map { SQLBind($0) }).run()
            try await Self.recordPlanEvent(plan, kind: "created", by: callerID, on: tx, events: events)
            return plan.document(history: try await Self.planHistory(plan.id, on: sql))
        }
    }

    /// Edits a plan or moves its status; every change is a new revision.
    /// - Throws: 400 `invalid_date_plan`, 409 `invalid_status_transition`, 409
    ///   `plan_revision_conflict`, 404 `date_plan_not_found`, 404 `couple_not_found`.
    func updateDatePlan(
        _ user: AuthenticatedUser, coupleID: String, planID: String, body: Components.Schemas.CloserDatePlanUpdate
    ) async throws -> Components.Schemas.CloserDatePlan {
        let callerID = user.user.id
        let now = nowMS
        let title = try body.title.map(Self.planTitle)
        let notes = try body.notes.map(Self.planNotes)
        if let status = body.status, !DatePlanRecord.statuses.contains(status) {
            throw KindredError.invalidDatePlan("status must be draft, planned or completed")
        }
        let events = self.events
        return try await events.publisher.transaction { tx in
            let sql = tx.sql
            let couple = try await Self.couple(coupleID, member: callerID, locking: true, on: sql)
            var plan = try await Self.plan(planID, coupleID: coupleID, on: sql)
            if let expected = body.expectedRevision, expected != plan.revision { throw KindredError.planRevisionConflict(current: plan.revision) }
            let before = plan
            (plan.date, plan.time) = try Self.planSchedule(date: body.date, time: body.time, current: (plan.date, plan.time))
            if let title { plan.title = title }
            if let notes { plan.notes = notes }
            if let status = body.status, status != plan.status {
                guard DatePlanRecord.transitions.contains("\(plan.status)>\(status)") else {
                    throw KindredError.invalidStatusTransition(from: plan.status, to: status)
                }
                plan.status = status
                if status == "completed" { plan.completedAt = now }
            }
            if plan.status == "planned", plan.date == nil { throw KindredError.invalidDatePlan("a planned date needs a date") }
            guard plan != before else { return plan.document(history: try await Self.planHistory(plan.id, on: sql)) }
            plan.timeZone = couple.timeZone
            plan.updatedBy = callerID
            plan.updatedAt = now
            plan.revision += 1
            try await sql.update("closer_date_plans")
                .set("title", to: plan.title).set("notes", to: plan.notes).set("status", to: plan.status)
                .set("scheduled_date", to: plan.date).set("scheduled_time", to: plan.time).set("time_zone", to: plan.timeZone)
                .set("updated_by", to: plan.updatedBy).set("updated_at", to: plan.updatedAt).set("revision", to: plan.revision)
                .set("completed_at", to: plan.completedAt)
                .where("id", .equal, plan.id).run()
            try await Self.recordPlanEvent(plan, kind: plan.status != before.status ? "status" : "edited", by: callerID, on: tx, events: events)
            return plan.document(history: try await Self.planHistory(plan.id, on: sql))
        }
    }

    /// The couple's plans, most recently changed first, without history.
    func datePlans(_ user: AuthenticatedUser, coupleID: String) async throws -> Components.Schemas.CloserDatePlanList {
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let rows = try await sql.select().columns(DatePlanRecord.columns).from("closer_date_plans").where("couple_id", .equal, coupleID)
            .orderBy("updated_at", .descending).orderBy("id", .descending).all()
        return .init(plans: try rows.map { try DatePlanRecord(row: $0).document() })
    }

    /// One plan with its history.
    func datePlan(_ user: AuthenticatedUser, coupleID: String, planID: String) async throws -> Components.Schemas.CloserDatePlan {
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let plan = try await Self.plan(planID, coupleID: coupleID, on: sql)
        return plan.document(history: try await Self.planHistory(planID, on: sql))
    }

    /// The couple's plan `id`.
    /// - Throws: 404 `date_plan_not_found`.
    static func plan(_ id: String, coupleID: String, on sql: any SQLDatabase) async throws -> DatePlanRecord {
        guard let row = try await sql.select().columns(DatePlanRecord.columns).from("closer_date_plans")
            .where("id", .equal, id).where("couple_id", .equal, coupleID).first()
        else { throw KindredError.datePlanNotFound }
        return try DatePlanRecord(row: row)
    }

    /// Every revision of a plan, oldest first.
    static func planHistory(_ planID: String, on sql: any SQLDatabase) async throws -> [Components.Schemas.CloserDatePlanEvent] {
        try await sql.select().columns("revision", "user_id", "kind", "status", "title", "scheduled_date", "scheduled_time", "created_at")
            .from("closer_date_plan_events").where("plan_id", .equal, planID).orderBy("revision").all()
            .map {
                .init(
                    revision: try $0.decode(column: "revision", as: Int.self), userId: try $0.decode(column: "user_id", as: String.self),
                    kind: try $0.decode(column: "kind", as: String.self), status: try $0.decode(column: "status", as: String.self),
                    title: try $0.decode(column: "title", as: String.self), date: try $0.decode(column: "scheduled_date", as: String?.self),
                    time: try $0.decode(column: "scheduled_time", as: String?.self),
                    createdAt: Date(millisecondsSince1970: try $0.decode(column: "created_at", as: Int64.self))
                )
            }
    }

    /// Appends the plan's current revision to its history and publishes `closer.date_plan_updated`.
    static func recordPlanEvent(_ plan: DatePlanRecord, kind: String, by userID: String, on tx: RealtimeTransaction, events: CloserEvents) async throws {
        try await tx.sql.insert(into: "closer_date_plan_events")
            .columns("plan_id", "revision", "couple_id", "user_id", "kind", "status", "title", "scheduled_date", "scheduled_time", "created_at")
            .values(
                SQLBind(plan.id), SQLBind(plan.revision), SQLBind(plan.coupleID), SQLBind(userID), SQLBind(kind), SQLBind(plan.status),
                SQLBind(plan.title), SQLBind(plan.date), SQLBind(plan.time), SQLBind(plan.updatedAt)
            ).run()
        if let channel = CloserEvents.channel(plan.coupleID) {
            try await events.publisher.publish(
                channel: channel, type: "closer.date_plan_updated",
                data: ["coupleId": plan.coupleID, "planId": plan.id, "revision": String(plan.revision), "status": plan.status, "userId": userID],
                on: tx
            )
        }
    }

    /// A trimmed title of 1–200 characters.
    static func planTitle(_ text: String) throws -> String {
        let title = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, title.count <= planTitleLimit else { throw KindredError.invalidDatePlan("title must be 1–\(planTitleLimit) characters") }
        return title
    }

    /// Notes of at most 2,000 characters.
    static func planNotes(_ text: String) throws -> String {
        guard text.count <= planNotesLimit else { throw KindredError.invalidDatePlan("notes must be at most \(planNotesLimit) characters") }
        return text
    }

    /// The schedule after applying `date` and `time` to `current`.
    /// - Throws: 400 `invalid_date_plan` for a malformed date or time, or a time without a date.
    static func planSchedule(date: String?, time: String?, current: (String?, String?)) throws -> (String?, String?) {
        if let date, DatePlanRecord.day(date) == nil { throw KindredError.invalidDatePlan("date must be a calendar date YYYY-MM-DD") }
        if let time, DatePlanRecord.clock(time) == nil { throw KindredError.invalidDatePlan("time must be HH:MM (00:00–23:59)") }
        let result = (date ?? current.0, time ?? current.1)
        if result.1 != nil, result.0 == nil { throw KindredError.invalidDatePlan("a time needs a date") }
        return result
    }
}
