import CloserAPI
import KindredServerCore
import OpenAPIRuntime

/// The Closer operations of daily questions, answers, release keys, history and threads.
extension CloserHandler {
    func getCloserToday(_ input: Operations.GetCloserToday.Input) async throws -> Operations.GetCloserToday.Output {
        .ok(.init(body: .json(try await closer.today(try await closerUser(), coupleID: input.path.coupleId, deviceID: input.query.deviceId))))
    }

    func assignCloserToday(_ input: Operations.AssignCloserToday.Input) async throws -> Operations.AssignCloserToday.Output {
        let (day, created) = try await closer.assignToday(try await closerUser(), coupleID: input.path.coupleId)
        return created ? .created(.init(body: .json(day))) : .ok(.init(body: .json(day)))
    }

    func getCloserDay(_ input: Operations.GetCloserDay.Input) async throws -> Operations.GetCloserDay.Output {
        let p = input.path
        let day = try await closer.day(try await closerUser(), coupleID: p.coupleId, date: p.date, deviceID: input.query.deviceId)
        return .ok(.init(body: .json(day)))
    }

    func getCloserAnswer(_ input: Operations.GetCloserAnswer.Input) async throws -> Operations.GetCloserAnswer.Output {
        let p = input.path
        return .ok(.init(body: .json(try await closer.answer(try await closerUser(), coupleID: p.coupleId, date: p.date, userID: p.userId))))
    }

    func createCloserAnswer(_ input: Operations.CreateCloserAnswer.Input) async throws -> Operations.CreateCloserAnswer.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let p = input.path
        return .created(.init(body: .json(try await closer.createAnswer(user, coupleID: p.coupleId, date: p.date, userID: p.userId, body: body))))
    }

    func updateCloserAnswerReveal(_ input: Operations.UpdateCloserAnswerReveal.Input) async throws -> Operations.UpdateCloserAnswerReveal.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let p = input.path
        return .ok(.init(body: .json(try await closer.updateReveal(user, coupleID: p.coupleId, date: p.date, userID: p.userId, update: body))))
    }

    func migrateCloserAnswer(_ input: Operations.MigrateCloserAnswer.Input) async throws -> Operations.MigrateCloserAnswer.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let p = input.path
        return .ok(.init(body: .json(try await closer.migrateAnswer(user, coupleID: p.coupleId, date: p.date, userID: p.userId, body: body))))
    }

    func createCloserAnswerReleaseKeys(
        _ input: Operations.CreateCloserAnswerReleaseKeys.Input
    ) async throws -> Operations.CreateCloserAnswerReleaseKeys.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let p = input.path
        let keys = try await closer.createReleaseKeys(user, coupleID: p.coupleId, scope: .day(p.date), authorID: p.userId, upload: body)
        return .created(.init(body: .json(keys)))
    }

    func listCloserDayReleaseKeys(_ input: Operations.ListCloserDayReleaseKeys.Input) async throws -> Operations.ListCloserDayReleaseKeys.Output {
        let p = input.path
        let keys = try await closer.releaseKeys(try await closerUser(), coupleID: p.coupleId, scope: .day(p.date), deviceID: input.query.deviceId)
        return .ok(.init(body: .json(keys)))
    }

    func listCloserHistory(_ input: Operations.ListCloserHistory.Input) async throws -> Operations.ListCloserHistory.Output {
        let page = try await closer.history(
            try await closerUser(), coupleID: input.path.coupleId, before: input.query.before, limit: input.query.limit
        )
        return .ok(.init(body: .json(page)))
    }

    func createCloserThread(_ input: Operations.CreateCloserThread.Input) async throws -> Operations.CreateCloserThread.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .created(.init(body: .json(try await closer.createThread(user, coupleID: input.path.coupleId, questionID: body.questionId))))
    }

    func listCloserThreads(_ input: Operations.ListCloserThreads.Input) async throws -> Operations.ListCloserThreads.Output {
        let page = try await closer.threads(
            try await closerUser(), coupleID: input.path.coupleId, limit: input.query.limit, cursor: input.query.cursor
        )
        return .ok(.init(body: .json(page)))
    }

    func getCloserThread(_ input: Operations.GetCloserThread.Input) async throws -> Operations.GetCloserThread.Output {
        let p = input.path
        return .ok(.init(body: .json(try await closer.thread(try await closerUser(), coupleID: p.coupleId, threadID: p.threadId))))
    }

    func createCloserThreadMessage(_ input: Operations.CreateCloserThreadMessage.Input) async throws -> Operations.CreateCloserThreadMessage.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let p = input.path
        let message = try await closer.createThreadMessage(user, coupleID: p.coupleId, threadID: p.threadId, userID: p.userId, body: body)
        return .created(.init(body: .json(message)))
    }

    func updateCloserThreadMessage(_ input: Operations.UpdateCloserThreadMessage.Input) async throws -> Operations.UpdateCloserThreadMessage.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let p = input.path
        let message = try await closer.updateThreadMessage(
            user, coupleID: p.coupleId, threadID: p.threadId, userID: p.userId, released: body.answerKeyReleased
        )
        return .ok(.init(body: .json(message)))
    }

    func createCloserThreadReleaseKeys(
        _ input: Operations.CreateCloserThreadReleaseKeys.Input
    ) async throws -> Operations.CreateCloserThreadReleaseKeys.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let p = input.path
        let keys = try await closer.createReleaseKeys(user, coupleID: p.coupleId, scope: .thread(p.threadId), authorID: p.userId, upload: body)
        return .created(.init(body: .json(keys)))
    }

    func listCloserThreadReleaseKeys(
        _ input: Operations.ListCloserThreadReleaseKeys.Input
    ) async throws -> Operations.ListCloserThreadReleaseKeys.Output {
        let p = input.path
        let keys = try await closer.releaseKeys(
            try await closerUser(), coupleID: p.coupleId, scope: .thread(p.threadId), deviceID: input.query.deviceId
        )
        return .ok(.init(body: .json(keys)))
    }
}
