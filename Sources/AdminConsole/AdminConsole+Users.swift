import Foundation
import Hummingbird
import KindredServerCore

extension AdminConsole {
    /// Rows per page of the user list.
    static let usersPageSize = 50

    /// `GET /admin/users?q=&app=&page=`: search by id, e-mail or name (optionally in one app);
    /// without `q`, one app's newest accounts, paged.
    func usersPage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        let query = Self.query(request)
        let text = query["q"].map { String($0.prefix(200)) }
        let app = query["app"].flatMap { accounts.apps.contains($0) ? $0 : nil }
        let page = max(1, min(Int(query["page"] ?? "1") ?? 1, 10_000))
        var rows: [AdminAccountRow] = []
        var heading = "Search by id, e-mail or name, or choose an app to list its newest accounts."
        var nextLink: String?
        var previousLink: String?
        if let text {
            rows = try await accounts.search(text, app: app, limit: Self.usersPageSize)
            heading = "\(AdminFormat.number(rows.count)) accounts match “\(text)”" + (rows.count == Self.usersPageSize ? " (the first \(Self.usersPageSize))" : "")
        } else if let app {
            rows = try await accounts.newest(app: app, offset: (page - 1) * Self.usersPageSize, limit: Self.usersPageSize + 1)
            heading = "Newest accounts of \(app) · page \(page)"
            if rows.count > Self.usersPageSize {
                rows.removeLast()
                nextLink = AdminViews.link("/admin/users", [("app", app), ("page", String(page + 1))])
            }
            if page > 1 { previousLink = AdminViews.link("/admin/users", [("app", app), ("page", String(page - 1))]) }
        }
        let view = AdminViews.Users(
            session: Self.view(session), notice: try await sessions.takeFlash(session), q: text ?? "",
            apps: accounts.apps.map { AdminViews.AppOption(value: $0, selected: $0 == app) },
            heading: heading, searched: text != nil || app != nil,
            rows: rows.map { row in
                AdminViews.AccountRow(
                    id: row.id, app: row.app, email: AdminViews.text(row.email), name: AdminViews.text(row.displayName),
                    createdAt: AdminViews.Time(row.createdAt), disabled: row.disabled, link: Self.userLink(row.id)
                )
            },
            nextLink: nextLink, previousLink: previousLink
        )
        return templates.page("users", view)
    }

    /// `GET /admin/users/:user`: the account, its providers, sessions, push tokens, what each
    /// domain holds for it (row counts, never content) and its subscription state.
    func userPage(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let session = try await session(request)
        let userID = try Self.pathUser(context)
        guard let account = try await administration.show(id: userID) else { throw AdminRefusal.notFound("user \(userID)") }
        let now = sessions.clock.now()
        let sessionRows = try await accounts.sessions(userID: userID).map { row in
            let live = row.revokedAt == nil && row.expiresAt > now
            return AdminViews.SessionRow(
                id: row.id, createdAt: AdminViews.Time(row.createdAt), refreshedAt: AdminViews.Time(row.refreshedAt),
                expiresAt: AdminViews.Time(row.expiresAt), state: row.revokedAt != nil ? "revoked" : (live ? "live" : "expired"),
                live: live
            )
        }
        let data = try await accounts.dataSummary(userID: userID, registry: accountsController.userData)
        let subscription = try? await subscriptions.detail(userID: userID)
        let view = AdminViews.User(
            title: "User \(userID)", session: Self.view(session), notice: try await sessions.takeFlash(session),
            id: userID, app: account.app, email: AdminViews.text(account.email), name: AdminViews.text(account.displayName),
            providers: account.providers.isEmpty ? "none (anonymous)" : account.providers.joined(separator: ", "),
            createdAt: AdminViews.Time(account.createdAt), disabled: account.disabledAt != nil,
            disabledAt: account.disabledAt.map(AdminViews.Time.init), liveSessions: AdminFormat.number(account.liveSessions),
            sessions: sessionRows, hasLiveSessions: sessionRows.contains(where: \.live),
            tokens: try await accounts.pushTokens(userID: userID).map { token in
                AdminViews.TokenRow(
                    app: token.app, transport: token.transport, deviceID: token.deviceID, tokenPrefix: token.tokenPrefix,
                    updatedAt: AdminViews.Time(token.updatedAt)
                )
            },
            data: data.map { AdminViews.DataRow(domain: $0.domain, table: $0.table, rows: AdminFormat.number($0.rows)) },
            subscription: subscription.flatMap { $0 }.map { "\($0.computedStatus), latest expiration \(AdminViews.date($0.computedExpiration))" },
            subscriptionLink: AdminViews.detailLink(userID), link: Self.userLink(userID)
        )
        return templates.page("user", view)
    }

    /// `POST /admin/users/:user/{export,disable,enable,revoke,revoke-all,delete}` (CSRF-checked):
    /// `revoke` takes `session=`, `delete` takes `confirm=` equal to the user's id. Each is
    /// audited, then 303 to the user's page (the list after a delete).
    func userAction(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let (session, form) = try await postedForm(request, context: context)
        let userID = try Self.pathUser(context)
        let action = context.parameters.get("action") ?? ""
        guard try await administration.show(id: userID) != nil else { throw AdminRefusal.notFound("user \(userID)") }
        let notice: String
        switch action {
        case "export":
            return try await exportUser(userID, session: session)
        case "disable", "enable":
            _ = try await administration.setDisabled(id: userID, action == "disable")
            notice = action == "disable" ? "Disabled the account; its sessions were revoked." : "Enabled the account."
        case "revoke":
            guard let sessionID = form["session"] else { throw AdminRefusal.badRequest("give the session's id") }
            guard try await accountsController.operatorRevokeSession(userID: userID, sessionID: sessionID) else {
                throw AdminRefusal.notFound("live session \(sessionID) of user \(userID)")
            }
            notice = "Revoked session \(sessionID)."
        case "revoke-all":
            let count = try await accountsController.operatorRevokeAllSessions(userID: userID)
            notice = "Revoked \(AdminFormat.number(count)) sessions."
        case "delete":
            guard form["confirm"] == userID else {
                throw AdminRefusal.badRequest("type the user's id to confirm the deletion; nothing was deleted")
            }
            _ = try await accountsController.operatorDelete(userID: userID)
            try await audited(session, "user.delete", target: userID, notice: "Deleted user \(userID) and their data.")
            return Self.redirect(to: "/admin/users")
        default:
            throw AdminRefusal.notFound("no such action")
        }
        try await audited(session, "user.\(action)", target: userID, notice: notice)
        return Self.redirect(to: Self.userLink(userID))
    }

    /// The account's export (what its owner gets from `GET /v1/me/export`) as a JSON download,
    /// audited as `user.export` (no notice: the page stays as it was).
    func exportUser(_ userID: String, session: AdminSession) async throws -> Response {
        guard let json = try await accountsController.operatorExport(userID: userID) else {
            throw AdminRefusal.notFound("user \(userID)")
        }
        try await audit.record(
            operatorID: session.operatorID, email: session.email, action: "user.export", target: userID,
            detail: "Exported user \(userID) (\(AdminFormat.number(json.count)) bytes)."
        )
        logger.notice("admin user.export", metadata: ["operator": "\(session.operatorID)", "target": "\(userID)"])
        let safeName = String(userID.unicodeScalars.map { scalar in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || scalar == "-" || scalar == "_" ? Character(scalar) : "_"
        })
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/json; charset=utf-8",
                .contentDisposition: "attachment; filename=\"kindred-user-\(safeName).json\"",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: Array(json)))
        )
    }

    /// `/admin/users/<id>`, the id percent-encoded.
    static func userLink(_ userID: String) -> String {
        "/admin/users/" + (userID.addingPercentEncoding(withAllowedCharacters: AdminViews.pathSegment) ?? userID)
    }

    /// The `:user` path parameter, 1–200 characters.
    /// - Throws: `AdminRefusal.badRequest` otherwise.
    static func pathUser(_ context: KindredRequestContext) throws -> String {
        guard let id = context.parameters.get("user")?.removingPercentEncoding, !id.isEmpty, id.utf8.count <= 200 else {
            throw AdminRefusal.badRequest("a user id is 1–200 characters")
        }
        return id
    }
}
