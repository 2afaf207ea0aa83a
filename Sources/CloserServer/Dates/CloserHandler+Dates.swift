import CloserAPI
import KindredServerCore
import OpenAPIRuntime

/// The operations of the `dates` tag: ideas, the deck, swipes, matches, preferences and plans.
extension CloserHandler {
    func listCloserDateIdeas(_ input: Operations.ListCloserDateIdeas.Input) async throws -> Operations.ListCloserDateIdeas.Output {
        _ = try await closerUser()
        return .ok(.init(body: .json(try closer.dateIdeas(category: input.query.category))))
    }

    func getCloserDateDeck(_ input: Operations.GetCloserDateDeck.Input) async throws -> Operations.GetCloserDateDeck.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.dateDeck(user, coupleID: input.path.coupleId, limit: input.query.limit))))
    }

    func swipeCloserDateIdea(_ input: Operations.SwipeCloserDateIdea.Input) async throws -> Operations.SwipeCloserDateIdea.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await closer.swipe(user, coupleID: input.path.coupleId, ideaID: input.path.ideaId, action: body.action))))
    }

    func listCloserDateMatches(_ input: Operations.ListCloserDateMatches.Input) async throws -> Operations.ListCloserDateMatches.Output {
        let user = try await closerUser()
        let page = try await closer.dateMatches(user, coupleID: input.path.coupleId, limit: input.query.limit, cursor: input.query.cursor)
        return .ok(.init(body: .json(page)))
    }

    func getCloserDatePreferences(_ input: Operations.GetCloserDatePreferences.Input) async throws -> Operations.GetCloserDatePreferences.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.datePreferences(user, coupleID: input.path.coupleId))))
    }

    func putCloserDatePreferences(_ input: Operations.PutCloserDatePreferences.Input) async throws -> Operations.PutCloserDatePreferences.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await closer.putDatePreferences(user, coupleID: input.path.coupleId, body: body))))
    }

    func createCloserDatePlan(_ input: Operations.CreateCloserDatePlan.Input) async throws -> Operations.CreateCloserDatePlan.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .created(.init(body: .json(try await closer.createDatePlan(user, coupleID: input.path.coupleId, body: body))))
    }

    func listCloserDatePlans(_ input: Operations.ListCloserDatePlans.Input) async throws -> Operations.ListCloserDatePlans.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.datePlans(user, coupleID: input.path.coupleId))))
    }

    func getCloserDatePlan(_ input: Operations.GetCloserDatePlan.Input) async throws -> Operations.GetCloserDatePlan.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.datePlan(user, coupleID: input.path.coupleId, planID: input.path.planId))))
    }

    func updateCloserDatePlan(_ input: Operations.UpdateCloserDatePlan.Input) async throws -> Operations.UpdateCloserDatePlan.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let plan = try await closer.updateDatePlan(user, coupleID: input.path.coupleId, planID: input.path.planId, body: body)
        return .ok(.init(body: .json(plan)))
    }
}
