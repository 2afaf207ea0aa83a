import KindredAPI
import OpenAPIRuntime

/// The notifications operations of the generated protocol (`/v1/me/push-tokens*`,
/// `/v1/me/notification-settings`).
extension APIHandler {
    func registerPushToken(_ input: Operations.RegisterPushToken.Input) async throws -> Operations.RegisterPushToken.Output {
        let user = try await authenticatedUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let (token, created) = try await notifications.register(body, for: user)
        return created ? .created(.init(body: .json(token))) : .ok(.init(body: .json(token)))
    }

    func listPushTokens(_ input: Operations.ListPushTokens.Input) async throws -> Operations.ListPushTokens.Output {
        let user = try await authenticatedUser()
        return .ok(.init(body: .json(.init(tokens: try await notifications.tokens(of: user)))))
    }

    func deletePushToken(_ input: Operations.DeletePushToken.Input) async throws -> Operations.DeletePushToken.Output {
        let user = try await authenticatedUser()
        try await notifications.delete(token: input.path.token, of: user)
        return .noContent(.init())
    }

    func getNotificationSettings(
        _ input: Operations.GetNotificationSettings.Input
    ) async throws -> Operations.GetNotificationSettings.Output {
        let user = try await authenticatedUser()
        return .ok(.init(body: .json(try await notifications.settings(of: user))))
    }

    func putNotificationSettings(
        _ input: Operations.PutNotificationSettings.Input
    ) async throws -> Operations.PutNotificationSettings.Output {
        let user = try await authenticatedUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await notifications.replaceSettings(body, of: user))))
    }
}
