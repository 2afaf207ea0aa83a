import Foundation
import Hummingbird
import KindredServerCore

extension AdminConsole {
    /// The pages added by issue 28 (overview aside): users, jobs, queues, audit log, operators.
    func registerOperations(on group: RouterGroup<KindredRequestContext>) {
        group.get("users") { request, _ in try await usersPage(request) }
        group.get("users/:user") { request, context in try await userPage(request, context: context) }
        group.post("users/:user/:action") { request, context in try await userAction(request, context: context) }
        group.get("jobs") { request, _ in try await jobsPage(request) }
        group.post("jobs/run") { request, context in try await runJob(request, context: context) }
        group.get("queues") { request, _ in try await queuesPage(request) }
        group.get("push") { request, _ in try await pushPage(request) }
        group.get("audit") { request, _ in try await auditPage(request) }
        group.get("operators") { request, _ in try await operatorsPage(request) }
        group.post("operators") { request, context in try await createOperator(request, context: context) }
        group.post("operators/:id/:action") { request, context in try await operatorAction(request, context: context) }
    }

    /// `GET /admin/jobs`: every registered job with its schedule, last run and next run.
    func jobsPage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        let rows = try await jobs.statuses().map { status in
            AdminViews.JobRow(
                name: status.name, schedule: status.schedule, timeZone: status.timeZone,
                nextRunAt: AdminViews.Time(status.nextRunAt), lastStartedAt: status.lastRun.map { AdminViews.Time($0.startedAt) },
                lastDuration: status.lastRun.map { "\(AdminFormat.number(Int($0.durationMilliseconds))) ms" } ?? "—",
                lastOutcome: status.lastRun.map { "\($0.outcome)" } ?? "never run",
                lastMessage: String((status.lastRun?.message ?? "").prefix(300)),
                failed: status.lastRun?.outcome == .failed
            )
        }
        let view = AdminViews.Jobs(
            session: Self.view(session), notice: try await sessions.takeFlash(session), jobs: rows,
            leader: "The replica holding the scheduler's lease runs scheduled jobs; “Run now” runs a job here, at once."
        )
        return templates.page("jobs", view)
    }

    /// `POST /admin/jobs/run` (CSRF-checked) with `name=`: runs the job now, then 303 to the jobs page.
    func runJob(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let (session, form) = try await postedForm(request, context: context)
        guard let name = form["name"] else { throw AdminRefusal.badRequest("give a job's name") }
        guard jobs.jobs.contains(where: { $0.name == name }) else { throw AdminRefusal.notFound("job \(name)") }
        let run = try await jobs.runNow(name)
        let notice = "Ran \(name): \(run.outcome) in \(AdminFormat.number(Int(run.durationMilliseconds))) ms — \(run.message.prefix(300))"
        try await audited(session, "job.run", target: name, notice: notice)
        return Self.redirect(to: "/admin/jobs")
    }

    /// `GET /admin/queues`: each queue's depth, due items, retries, oldest item's age, dead letters.
    func queuesPage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        let now = sessions.clock.now()
        let rows = try await queueSummary().map { state in
            AdminViews.QueueRow(
                queue: state.queue, depth: AdminFormat.number(state.depth), due: AdminFormat.number(state.due),
                retrying: AdminFormat.number(state.retrying),
                oldestAge: state.oldest.map { AdminFormat.age(milliseconds: now.millisecondsSince1970 - $0.millisecondsSince1970) } ?? "—",
                deadLetters: AdminFormat.number(state.deadLetters),
                deadLettersLink: AdminViews.link("/admin/dead-letters", [("queue", state.queue)]),
                hasDeadLetters: state.deadLetters > 0
            )
        }
        let view = AdminViews.Queues(session: Self.view(session), notice: try await sessions.takeFlash(session), queues: rows)
        return templates.page("queues", view)
    }
}
