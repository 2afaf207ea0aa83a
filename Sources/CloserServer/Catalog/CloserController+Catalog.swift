import KindredServerCore
import CloserAPI

/// The read-only catalog routes.
extension CloserController {
    /// Every pack and category.
    func catalogDocument() -> Components.Schemas.CloserCatalog {
        Components.Schemas.CloserCatalog(
            version: catalog.version,
            packs: catalog.packs.map {
                .init(
                    id: $0.id, title: $0.title, description: $0.description, isPremium: $0.isPremium,
                    questionCount: $0.activeQuestions.count, categoryIds: $0.categoryIDs
                )
            },
            categories: catalog.document.categories.map { .init(id: $0.id, name: $0.name) }
        )
    }

    /// One page of a pack's active questions; the cursor is the offset of the next question.
    func packQuestions(packID: String, limit: Int?, cursor: String?) throws -> Components.Schemas.CloserQuestionPage {
        guard let pack = catalog.packsByID[packID] else { throw KindredError.packNotFound }
        let limit = try Self.pageLimit(limit)
        let offset: Int
        if let cursor {
            guard let value = Int(cursor), value >= 0, value <= pack.activeQuestions.count else {
                throw KindredError.badRequest("cursor is not one this server issued")
            }
            offset = value
        } else {
            offset = 0
        }
        let end = min(pack.activeQuestions.count, offset + limit)
        return .init(
            questions: pack.activeQuestions[offset..<end].map { document($0) },
            nextCursor: end < pack.activeQuestions.count ? String(end) : nil
        )
    }

    /// One question.
    func question(id: String) throws -> Components.Schemas.CloserQuestion {
        guard let question = catalog.questionsByID[id] else { throw KindredError.questionNotFound }
        return document(question)
    }
}
