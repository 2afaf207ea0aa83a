import KindredAPI
import KindredStore
import OpenAPIRuntime
import Prometheus

/// The implementation of the generated server protocol: one type, with each domain's
/// operations in its own extension (`APIHandler+Accounts.swift`, …) delegating to its controller.
/// This file holds the operational endpoints: `/health`, `/ready`, `/metrics`, `/openapi.yaml`,
/// `/openapi/{name}.yaml`. Domains implement their own contracts' protocols (`CloserHandler`, …).
///
/// A final class, not a struct: the generated server copies its handler into several closures per
/// request, and a struct copy retained (and then released) every reference inside every controller,
/// about 15 % of `GET /health`'s CPU. A class copy is one retain.
final class APIHandler: APIProtocol, Sendable {
    let database: Database
    let metrics: PrometheusCollectorRegistry
    let contracts: APIContracts
    let accounts: AccountsController
    let notifications: NotificationsController
    let realtime: RealtimeHub
    let rateLimiter: RateLimiter
    let subscriptions: any SubscriptionService
    /// Device integrity: challenges, App Attest keys and assertions, Play Integrity verdicts.
    let integrity: IntegrityService
    /// Who may read `/metrics` and `/ready`.
    let operationsAccess: OperationsAccess

    init(
        database: Database, metrics: PrometheusCollectorRegistry, contracts: APIContracts, accounts: AccountsController,
        notifications: NotificationsController, realtime: RealtimeHub, rateLimiter: RateLimiter,
        subscriptions: any SubscriptionService, integrity: IntegrityService, operationsAccess: OperationsAccess
    ) {
        self.database = database
        self.metrics = metrics
        self.contracts = contracts
        self.accounts = accounts
        self.notifications = notifications
        self.realtime = realtime
        self.rateLimiter = rateLimiter
        self.subscriptions = subscriptions
        self.integrity = integrity
        self.operationsAccess = operationsAccess
    }

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    func getReady(_ input: Operations.GetReady.Input) async throws -> Operations.GetReady.Output {
        try operationsAccess.check(try RequestScope.require())
        do {
            try await database.ping()
        } catch {
            throw KindredError.notReady
        }
        return .ok(.init(body: .json(.init(status: .ready, database: database.sql.dialect.name))))
    }

    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        try operationsAccess.check(try RequestScope.require())
        return .ok(.init(body: .plainText(HTTPBody(metrics.emitToBuffer()))))
    }

    func getOpenAPIDocument(
        _ input: Operations.GetOpenAPIDocument.Input
    ) async throws -> Operations.GetOpenAPIDocument.Output {
        .ok(.init(body: .yaml(HTTPBody(contracts.merged))))
    }

    func getOpenAPIContract(
        _ input: Operations.GetOpenAPIContract.Input
    ) async throws -> Operations.GetOpenAPIContract.Output {
        guard let document = contracts.byName[input.path.name] else {
            throw KindredError.notFound
        }
        return .ok(.init(body: .yaml(HTTPBody(document))))
    }
}
