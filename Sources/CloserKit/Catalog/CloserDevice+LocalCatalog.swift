import Foundation
import CloserAPI
import KindredClient

/// Today's question as the device shows it: from the server when it answers, else from the
/// local catalog and the cached assignment.
public struct CloserLocalDay: Sendable, Equatable {
    /// The date key (`YYYY-MM-DD`).
    public let date: String
    /// The question's id.
    public let questionId: String
    /// The question's text (from the local catalog, or the server's when the catalog lacks it).
    public let questionText: String?
    /// Whether the server could not be reached and the cached assignment was shown.
    public let offline: Bool

    /// A day from its parts.
    public init(date: String, questionId: String, questionText: String?, offline: Bool) {
        self.date = date
        self.questionId = questionId
        self.questionText = questionText
        self.offline = offline
    }
}

extension CloserDevice {
    /// Brings the local catalog up to date: reads the server's catalog (one request) and, only
    /// when its `version` differs from the stored copy's (or the server names none), downloads
    /// every pack's questions page by page and replaces the stored questions.
    /// - Returns: whether the questions were downloaded.
    /// - Throws: client errors (the stored copy is left as it was).
    @discardableResult
    public func refreshCatalog(in store: LocalCatalogStore) async throws(CloserKitError) -> Bool {
        let output = try await call { [app] in try await $0.getCloserCatalog(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let catalog) = ok.body else { throw Self.failure(output) }
        var local = try store.load()
        if let version = catalog.version, version == local.version { return false }
        var questions: [String: LocalQuestionCatalog.Question] = [:]
        for pack in catalog.packs {
            var cursor: String?
            repeat {
                let after = cursor
                let page = try await call { [app] in
                    try await $0.listCloserPackQuestions(
                        path: .init(packId: pack.id), query: .init(limit: 100, cursor: after), headers: .init(xKindredApp: app)
                    )
                }
                guard case .ok(let ok) = page, case .json(let body) = ok.body else { throw Self.failure(page) }
                for question in body.questions {
                    questions[question.id] = .init(id: question.id, packId: question.packId, categoryId: question.categoryId, text: question.text)
                }
                guard body.nextCursor == nil || body.nextCursor != after else { throw .invalidServerData("a page cursor that does not advance") }
                cursor = body.nextCursor
            } while cursor != nil
        }
        // Keep the text of an assigned question that is no longer listed (retired after assignment).
        if let assigned = local.today?.questionId, questions[assigned] == nil, let kept = local.questions[assigned] {
            questions[assigned] = kept
        }
        local.version = catalog.version
        local.questions = questions
        try store.save(local)
        return true
    }

    /// Today's question, offline-first: asks the server (assigning on demand like `today()`),
    /// caches the assignment's question id in `store`, and shows the text from the local
    /// catalog. When the server cannot be reached, shows the cached assignment while it is
    /// still current (before its `expiresAt` on the device's clock).
    /// - Throws: `.noQuestion` offline with no current cached assignment; client errors other
    ///   than an unreachable server as they come.
    public func todaysQuestion(in store: LocalCatalogStore) async throws(CloserKitError) -> CloserLocalDay {
        let day: Components.Schemas.CloserDailyQuestion
        do throws(CloserKitError) {
            day = try await withCouple { couple throws(CloserKitError) in try await currentQuestion(of: couple) }
        } catch {
            guard case .client(.transport) = error else { throw error }
            let local = try store.load()
            guard let today = local.today, today.expiresAt > now() else { throw .noQuestion }
            return CloserLocalDay(
                date: today.date, questionId: today.questionId, questionText: local.questions[today.questionId]?.text, offline: true
            )
        }
        var local = try store.load()
        local.today = .init(coupleId: day.coupleId, date: day.date, questionId: day.questionId, expiresAt: day.expiresAt)
        if let question = day.question, local.questions[question.id] == nil {
            local.questions[question.id] = .init(id: question.id, packId: question.packId, categoryId: question.categoryId, text: question.text)
        }
        try store.save(local)
        return CloserLocalDay(
            date: day.date, questionId: day.questionId,
            questionText: local.questions[day.questionId]?.text ?? day.question?.text, offline: false
        )
    }
}
