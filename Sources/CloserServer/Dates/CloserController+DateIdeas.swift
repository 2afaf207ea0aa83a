import CloserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The date-idea catalog, the caller's deck and the caller's category weights.
extension CloserController {
    /// The API document of an idea.
    func document(_ idea: DateIdeasDocument.Idea) -> Components.Schemas.CloserDateIdea {
        .init(
            id: idea.id, title: idea.title, description: idea.description, category: idea.category, costLevel: idea.costLevel,
            imageUrl: idea.imageUrl
        )
    }

    /// Every idea, or those of one category.
    /// - Throws: 400 `bad_request` for an unknown category.
    func dateIdeas(category: String?) throws -> Components.Schemas.CloserDateIdeaList {
        if let category, !DateIdeasDocument.categories.contains(category) {
            throw KindredError.badRequest("category must be one of \(DateIdeasDocument.categories.joined(separator: ", "))")
        }
        let ideas = dateIdeas.ideas.filter { category == nil || $0.category == category }
        return .init(ideas: ideas.map { document($0) }, categories: DateIdeasDocument.categories)
    }

    /// The ideas the caller has not swiped, heaviest category first, then catalog order.
    func dateDeck(_ user: AuthenticatedUser, coupleID: String, limit: Int?) async throws -> Components.Schemas.CloserDateDeck {
        let limit = try Self.pageLimit(limit)
        let callerID = user.user.id
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: callerID, on: sql)
        let swiped = try await sql.select().column("idea_id").from("closer_date_swipes")
            .where("couple_id", .equal, coupleID).where("user_id", .equal, callerID).all()
        let seen = Set(try swiped.map { try $0.decode(column: "idea_id", as: String.self) })
        let weights = try await Self.dateWeights(coupleID: coupleID, userID: callerID, on: sql)
        let positions = dateIdeas.positions
        let deck = dateIdeas.ideas.filter { !seen.contains($0.id) }.sorted { a, b in
            let wa = weights[a.category] ?? 0, wb = weights[b.category] ?? 0
            return wa != wb ? wa > wb : (positions[a.id] ?? 0) < (positions[b.id] ?? 0)
        }
        return .init(ideas: deck.prefix(limit).map { document($0) }, remaining: deck.count)
    }

    /// The caller's weights.
    func datePreferences(_ user: AuthenticatedUser, coupleID: String) async throws -> Components.Schemas.CloserDatePreferences {
        let sql = database.sql
        _ = try await Self.couple(coupleID, member: user.user.id, on: sql)
        return Self.preferencesDocument(try await Self.dateWeights(coupleID: coupleID, userID: user.user.id, on: sql))
    }

    /// Replaces the caller's weights.
    /// - Throws: 400 `invalid_preferences` for an unknown or repeated category or a weight outside -3…3.
    func putDatePreferences(
        _ user: AuthenticatedUser, coupleID: String, body: Components.Schemas.CloserDatePreferences
    ) async throws -> Components.Schemas.CloserDatePreferences {
        var weights: [String: Int] = [:]
        for preference in body.preferences {
            guard DateIdeasDocument.categories.contains(preference.category) else {
                throw KindredError.invalidPreferences("unknown category \"\(preference.category.prefix(32))\"")
            }
            guard (-3...3).contains(preference.weight) else { throw KindredError.invalidPreferences("weights are -3 to 3") }
            guard weights.updateValue(preference.weight, forKey: preference.category) == nil else {
                throw KindredError.invalidPreferences("category \(preference.category) appears twice")
            }
        }
        let callerID = user.user.id
        let now = nowMS
        let stored = weights
        try await database.transaction { sql in
            _ = try await Self.couple(coupleID, member: callerID, on: sql)
            try await sql.delete(from: "closer_date_plan_preferences").where("couple_id", .equal, coupleID).where("user_id", .equal, callerID).run()
            for (category, weight) in stored.sorted(by: { $0.key < $1.key }) {
                try await sql.insert(into: "closer_date_plan_preferences").columns("couple_id", "user_id", "category", "weight", "updated_at")
                    .values(SQLBind(coupleID), SQLBind(callerID), SQLBind(category), SQLBind(weight), SQLBind(now)).run()
            }
        }
        return Self.preferencesDocument(stored)
    }

    /// A member's weights by category.
    static func dateWeights(coupleID: String, userID: String, on sql: any SQLDatabase) async throws -> [String: Int] {
        let rows = try await sql.select().columns("category", "weight").from("closer_date_plan_preferences")
            .where("couple_id", .equal, coupleID).where("user_id", .equal, userID).all()
        var weights: [String: Int] = [:]
        for row in rows { weights[try row.decode(column: "category", as: String.self)] = try row.decode(column: "weight", as: Int.self) }
        return weights
    }

    /// Weights as the API lists them: in the categories' order.
    static func preferencesDocument(_ weights: [String: Int]) -> Components.Schemas.CloserDatePreferences {
        .init(preferences: DateIdeasDocument.categories.compactMap { category in weights[category].map { .init(category: category, weight: $0) } })
    }
}
