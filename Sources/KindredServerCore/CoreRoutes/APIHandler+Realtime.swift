import KindredAPI

extension APIHandler {
    func createRealtimeTicket(
        _ input: Operations.CreateRealtimeTicket.Input
    ) async throws -> Operations.CreateRealtimeTicket.Output {
        let scope = try RequestScope.require()
        let app = try RequestScope.requireApp()
        let user = try await accounts.authenticate(scope, app: app)
        let ticket = try await realtime.issueTicket(for: user, app: app.id)
        let lifetime = Int(realtime.settings.ticketLifetime.components.seconds)
        return .created(.init(body: .json(.init(ticket: ticket, expiresIn: lifetime))))
    }
}
