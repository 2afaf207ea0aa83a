import KindredServerCore
import Hummingbird
import KindredStore

extension AdminConsole {
    /// `GET /admin/dead-letters[?queue=Q]`: the work queue's dead letters, newest first (200 at most).
    func deadLettersPage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        let queueName = try Self.queueFilter(Self.query(request)["queue"])
        return try await deadLetters(session: session, queue: queueName, notice: try await sessions.takeFlash(session))
    }

    /// `POST /admin/dead-letters/redrive` (CSRF-checked): `id=…` re-drives one, `all=1` every
    /// one (of `queue`, if given); then 303 to the list, which shows what happened once.
    func redrive(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let (session, form) = try await postedForm(request, context: context)
        let queueName = try Self.queueFilter(form["queue"])
        let notice: String
        if let id = form["id"] {
            do {
                try await queue.redrive(id: id)
                notice = "Re-drove \(id)."
            } catch QueueError.unknownDeadLetter {
                notice = "There is no dead letter \(id) (already re-driven?)."
            }
        } else if form["all"] == "1" {
            let count = try await queue.redriveAll(queue: queueName)
            notice = "Re-drove \(count) dead letters."
        } else {
            throw AdminRefusal.badRequest("give a dead letter's id or all=1")
        }
        try await audited(session, "dead-letters.redrive", target: form["id"] ?? queueName ?? "all", notice: notice)
        return Self.redirect(to: AdminViews.link("/admin/dead-letters", [("queue", queueName)]))
    }

    private func deadLetters(session: AdminSession, queue queueName: String?, notice: String?) async throws -> Response {
        let letters = try await queue.deadLetters(queue: queueName, limit: 200)
        let view = AdminViews.DeadLetters(
            session: Self.view(session), notice: notice, queue: queueName ?? "", hasLetters: !letters.isEmpty,
            letters: letters.map { letter in
                AdminViews.Letter(
                    id: letter.id, queue: letter.queue, attempts: letter.attempts, createdAt: AdminViews.date(letter.createdAt),
                    failedAt: AdminViews.date(letter.failedAt), lastError: String(letter.lastError.prefix(500)),
                    payload: letter.payload.count > 300 ? String(letter.payload.prefix(300)) + "…" : letter.payload
                )
            }
        )
        return templates.page("dead_letters", view)
    }

    /// A queue name filter: nil when blank; 1–100 of `a-z 0-9 . _ -`.
    /// - Throws: `AdminRefusal.badRequest` otherwise.
    static func queueFilter(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard value.utf8.count <= 100,
            value.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 46 || $0 == 95 || $0 == 45 })
        else { throw AdminRefusal.badRequest("a queue name is 1–100 of a-z 0-9 . _ -") }
        return value
    }
}
