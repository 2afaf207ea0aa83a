import KindredServerCore
import Foundation
import Hummingbird

extension AdminConsole {
    /// Rows per page of the subscriptions table.
    static let pageSize = 50

    /// `GET /admin/subscriptions?q=&status=&platform=&page=`: the table, the double-billing flags
    /// and the backfill buttons.
    func subscriptionsPage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        let query = Self.query(request)
        let search = query["q"].map { String($0.prefix(200)) }
        let status = query["status"].flatMap { AdminSubscriptionQuery.statuses.contains($0) ? $0 : nil }
        let platform = query["platform"].flatMap { AdminSubscriptionQuery.platforms.contains($0) ? $0 : nil }
        let pageNumber = min(max(Int(query["page"] ?? "1") ?? 1, 1), 100_000)
        var view = AdminViews.Subscriptions(
            session: Self.view(session), notice: try await sessions.takeFlash(session), q: search ?? "",
            statuses: AdminSubscriptionQuery.statuses.map { .init(value: $0, selected: $0 == status) },
            platforms: AdminSubscriptionQuery.platforms.map { .init(value: $0, selected: $0 == platform) },
            total: 0, pageNumber: pageNumber, pageCount: 1, rows: [], previousLink: nil, nextLink: nil,
            refreshLink: "/admin/subscriptions", flags: [],
            backfills: AdminBackfillKind.allCases.map { .init(kind: $0.rawValue, title: $0.title) }
        )
        let page = try await subscriptions.search(
            AdminSubscriptionQuery(
                search: search, status: status, platform: platform, limit: Self.pageSize,
                offset: (pageNumber - 1) * Self.pageSize
            )
        )
        func link(_ number: Int) -> String {
            AdminViews.link(
                "/admin/subscriptions",
                [("q", search), ("status", status), ("platform", platform), ("page", number == 1 ? nil : String(number))]
            )
        }
        view.total = page.total
        view.pageCount = max(1, (page.total + Self.pageSize - 1) / Self.pageSize)
        view.rows = page.rows.map(AdminViews.row)
        view.previousLink = pageNumber > 1 ? link(pageNumber - 1) : nil
        view.nextLink = pageNumber < view.pageCount ? link(pageNumber + 1) : nil
        view.refreshLink = link(pageNumber)
        view.flags = try await subscriptions.doubleBilled(limit: 100).map(AdminViews.row)
        return templates.page("subscriptions", view)
    }

    /// `GET /admin/subscriptions/:user`: the computed state, the plan history and the actions.
    func detailPage(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let session = try await session(request)
        return try await detail(userID: try Self.userID(context), session: session, notice: try await sessions.takeFlash(session))
    }

    /// `POST /admin/subscriptions/:user/refresh` and `…/sync` (CSRF-checked): recompute the
    /// record, or run the provider syncs first (`provider=both|stripe|revenuecat`, both when
    /// absent); then 303 to the detail page, which shows what
    /// happened once (a reload does not post again).
    func detailAction(_ request: Request, context: KindredRequestContext, sync: Bool) async throws -> Response {
        let (session, form) = try await postedForm(request, context: context)
        let userID = try Self.userID(context)
        let directory = subscriptions
        let notice: String
        if sync {
            guard let providers = AdminSyncProviders(rawValue: form["provider"] ?? "both") else {
                throw AdminRefusal.badRequest("provider must be both, stripe or revenuecat")
            }
            guard let outcome = try await directory.syncNow(userID: userID, providers: providers) else {
                throw AdminRefusal.notFound("user \(userID)")
            }
            notice = (providers == .both ? "Synced" : "Synced \(providers.rawValue)") + ": \(outcome.appended) plan entries appended"
                + (outcome.failedProviders.isEmpty ? "." : "; could not read \(outcome.failedProviders.joined(separator: ", ")).")
        } else {
            guard try await directory.refresh(userID: userID) else { throw AdminRefusal.notFound("user \(userID)") }
            notice = "Recomputed."
        }
        try await audited(session, sync ? "subscription.sync" : "subscription.refresh", target: userID, notice: notice)
        return Self.redirect(to: AdminViews.detailLink(userID))
    }

    /// `POST /admin/backfills/:kind` (CSRF-checked) with `mode=dry-run` (the report, nothing
    /// written, and a form to write it) or `mode=apply` (writes, then 303 to the user's detail or
    /// the table, which shows the report's summary once); `user=…` limits it to one user.
    func backfill(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let (session, form) = try await postedForm(request, context: context)
        guard let kind = context.parameters.get("kind").flatMap(AdminBackfillKind.init(rawValue:)) else {
            throw AdminRefusal.notFound("no such backfill")
        }
        let dryRun: Bool
        switch form["mode"] {
        case "dry-run": dryRun = true
        case "apply": dryRun = false
        default: throw AdminRefusal.badRequest("mode must be dry-run or apply")
        }
        let userID = form["user"].map { String($0.prefix(200)) }
        let report = try await subscriptions.backfill(kind, dryRun: dryRun, userID: userID)
        if !dryRun {
            try await audited(session, "backfill.\(kind.rawValue)", target: userID ?? "", notice: Self.summary(kind, report))
            return Self.redirect(to: userID.map(AdminViews.detailLink) ?? "/admin/subscriptions")
        }
        try await audit.record(
            operatorID: session.operatorID, email: session.email, action: "backfill.\(kind.rawValue).dry-run",
            target: userID ?? "", detail: "Dry run: " + Self.summary(kind, report)
        )
        let view = AdminViews.Backfill(
            title: kind.title + " — dry run", session: Self.view(session), kind: kind.rawValue,
            userID: userID, examined: report.examined, changeCount: report.changes.count,
            failureCount: report.failures.count, changes: report.changes.map { .init(userID: $0.userID, summary: $0.summary) },
            hasFailures: !report.failures.isEmpty, failures: report.failures, canApply: !report.changes.isEmpty
        )
        return templates.page("backfill", view)
    }

    /// The notice a written backfill leaves: the counts, then each change (cut to the flash's length).
    static func summary(_ kind: AdminBackfillKind, _ report: AdminBackfillReport) -> String {
        var text = "\(kind.title): wrote \(report.changes.count) changes (examined \(report.examined); "
            + "\(report.failures.count) failures)."
        for change in report.changes { text += " \(change.userID): \(change.summary)." }
        if !report.failures.isEmpty { text += " Could not read: \(report.failures.joined(separator: ", "))." }
        return text
    }

    private func detail(userID: String, session: AdminSession, notice: String?) async throws -> Response {
        guard let detail = try await subscriptions.detail(userID: userID) else {
            throw AdminRefusal.notFound("user \(userID)")
        }
        let view = AdminViews.Detail(
            title: "Subscription \(userID)", session: Self.view(session), notice: notice, userID: userID,
            computedStatus: detail.computedStatus, computedExpiration: AdminViews.date(detail.computedExpiration),
            trialEnd: AdminViews.date(detail.trialEnd), row: detail.row.map(AdminViews.row), links: detail.links,
            plans: detail.plans.map { plan in
                AdminViews.Plan(
                    planType: plan.planType, productID: plan.productID, platform: plan.platform, provider: plan.provider,
                    lineage: plan.lineage, kind: plan.kind, expiration: AdminViews.date(plan.expiration),
                    eventTime: AdminViews.date(plan.eventTime), eventID: plan.eventID, sandbox: plan.sandbox
                )
            },
            events: detail.events, raw: detail.rawResponses, selfLink: AdminViews.detailLink(userID)
        )
        return templates.page("subscription", view)
    }

    /// The `:user` path parameter: 1–200 bytes.
    private static func userID(_ context: KindredRequestContext) throws -> String {
        guard let raw = context.parameters.get("user") else { throw AdminRefusal.badRequest("no user id") }
        let id = raw.removingPercentEncoding ?? raw
        guard (1...200).contains(id.utf8.count) else { throw AdminRefusal.badRequest("a user id is 1–200 bytes") }
        return id
    }
}
