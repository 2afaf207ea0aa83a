import Foundation
import Hummingbird
import KindredServerCore

extension AdminConsole {
    /// Entries per page of the audit log.
    static let auditPageSize = 50

    /// `GET /admin/audit?page=`: the audit log, newest first, 50 a page. There is no route that
    /// edits or deletes an entry.
    func auditPage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        let requested = max(1, min(Int(Self.query(request)["page"] ?? "1") ?? 1, 100_000))
        let (entries, total) = try await audit.page(offset: (requested - 1) * Self.auditPageSize, limit: Self.auditPageSize)
        let pageCount = max(1, (total + Self.auditPageSize - 1) / Self.auditPageSize)
        let view = AdminViews.Audit(
            session: Self.view(session), notice: try await sessions.takeFlash(session), total: AdminFormat.number(total),
            pageNumber: requested, pageCount: pageCount,
            entries: entries.map { entry in
                AdminViews.AuditRow(
                    createdAt: AdminViews.Time(entry.createdAt), operatorEmail: entry.operatorEmail, action: entry.action,
                    target: entry.target.isEmpty ? "—" : entry.target, detail: entry.detail
                )
            },
            previousLink: requested > 1 ? "/admin/audit?page=\(requested - 1)" : nil,
            nextLink: requested < pageCount ? "/admin/audit?page=\(requested + 1)" : nil
        )
        return templates.page("audit", view)
    }

    /// `GET /admin/operators`: every operator, and the form that creates one.
    func operatorsPage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        return try await operatorsView(session: session, notice: try await sessions.takeFlash(session), error: nil, email: "")
    }

    /// `POST /admin/operators` (CSRF-checked) with `email` and `password`: creates an operator,
    /// then 303 to the list; a malformed e-mail, weak password or taken e-mail shows the form
    /// again with the reason (status 400) and creates nothing.
    func createOperator(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let (session, form) = try await postedForm(request, context: context)
        let email = form["email"] ?? ""
        do {
            let created = try await operators.create(email: email, password: form.raw("password") ?? "")
            try await audited(session, "operator.create", target: created.email, notice: "Created operator \(created.email).")
            return Self.redirect(to: "/admin/operators")
        } catch let error as AdminOperatorError {
            var response = try await operatorsView(session: session, notice: nil, error: error.description, email: email)
            response.status = .badRequest
            return response
        }
    }

    /// `POST /admin/operators/:id/{disable,enable}` (CSRF-checked): an operator cannot disable
    /// themselves (the console would lose its last way in); disabling ends their sessions.
    func operatorAction(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let (session, _) = try await postedForm(request, context: context)
        let id = context.parameters.get("id") ?? ""
        let action = context.parameters.get("action") ?? ""
        guard action == "disable" || action == "enable" else { throw AdminRefusal.notFound("no such action") }
        guard let target = try await operators.list().first(where: { $0.id == id }) else {
            throw AdminRefusal.notFound("operator \(id)")
        }
        if action == "disable", target.id == session.operatorID {
            throw AdminRefusal.badRequest("you cannot disable yourself; ask another operator")
        }
        _ = try await operators.setDisabled(email: target.email, action == "disable")
        try await audited(
            session, "operator.\(action)", target: target.email,
            notice: action == "disable" ? "Disabled \(target.email); their sessions ended." : "Enabled \(target.email)."
        )
        return Self.redirect(to: "/admin/operators")
    }

    private func operatorsView(session: AdminSession, notice: String?, error: String?, email: String) async throws -> Response {
        let view = AdminViews.Operators(
            session: Self.view(session), notice: notice,
            operators: try await operators.list().map { item in
                AdminViews.OperatorRow(
                    id: item.id, email: item.email, createdAt: AdminViews.Time(item.createdAt), disabled: item.disabledAt != nil,
                    isSelf: item.id == session.operatorID
                )
            },
            error: error, email: email,
            timeZone: session.timeZone.name, zones: Self.zoneOptions(session: session),
            usesDefaultZone: !session.choseTimeZone, defaultZone: sessions.consoleTimeZone.name
        )
        return templates.page("operators", view)
    }
}
