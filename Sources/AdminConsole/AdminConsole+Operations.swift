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
        group.get("realtime") { request, _ in try await realtimePage(request) }
        group.get("audit") { request, _ in try await auditPage(request) }
        group.get("operators") { request, _ in try await operatorsPage(request) }
        group.post("operators") { request, context in try await createOperator(request, context: context) }
        group.post("operators/time-zone") { request, context in try await setTimeZone(request, context: context) }
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

    /// The mean per minute of a series, with one decimal (`0.4`, `12`, `1,250.5`).
    static func perMinute(_ series: [Int]) -> String {
        guard !series.isEmpty else { return "0" }
        let tenths = (series.reduce(0, +) * 10 + series.count / 2) / series.count
        return tenths % 10 == 0 ? AdminFormat.number(tenths / 10) : "\(AdminFormat.number(tenths / 10)).\(tenths % 10)"
    }

    /// `GET /admin/queues`: each queue's depth, due items, retries, oldest item's age, dead
    /// letters, and its last hour: items completed (per minute), failed attempts, dead-lettered.
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
                hasDeadLetters: state.deadLetters > 0,
                completed: Stat(
                    label: "Completed here, last hour", value: state.completed.reduce(0, +),
                    series: state.completed.isEmpty ? nil : state.completed, unit: .minutes
                ),
                perMinute: state.completed.isEmpty ? "0" : Self.perMinute(state.completed),
                failed: AdminFormat.number(state.failed.reduce(0, +)),
                deadLetteredLastHour: AdminFormat.number(state.deadLetteredLastHour)
            )
        }
        let view = AdminViews.Queues(session: Self.view(session), notice: try await sessions.takeFlash(session), queues: rows)
        return templates.page("queues", view)
    }
}
