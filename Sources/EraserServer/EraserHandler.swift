import EraserAPI
import Foundation
import KindredServerCore

/// Ex-Eraser's contract operations: each authenticates, checks the app and calls the controller.
final class EraserHandler: APIProtocol, Sendable {
    let eraser: EraserController
    let authenticator: Authenticator

    init(eraser: EraserController, authenticator: Authenticator) {
        self.eraser = eraser
        self.authenticator = authenticator
    }

    /// The caller, an Ex-Eraser account (anonymous ones included).
    func caller() async throws -> AuthenticatedUser {
        let user = try await authenticator.user()
        try EraserController.requireExEraser(user)
        return user
    }

    func getExEraserPlan(_ input: Operations.GetExEraserPlan.Input) async throws -> Operations.GetExEraserPlan.Output {
        .ok(.init(body: .json(await eraser.plan(try await caller()))))
    }

    func postExEraserAnalyticsEvents(_ input: Operations.PostExEraserAnalyticsEvents.Input) async throws
        -> Operations.PostExEraserAnalyticsEvents.Output
    {
        let user = try await caller()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .accepted(.init(body: .json(.init(accepted: try await eraser.record(user, body)))))
    }
}
