import Foundation
import Hummingbird
import Synchronization

/// A local stand-in for RevenueCat's REST API v2 (the two reads a sync makes), answering in its
/// documented shapes from what a test put in it.
final class FakeRevenueCat: Sendable {
    /// Subscriptions by "project/customer"; a customer absent here answers 404.
    private let customers = Mutex<[String: [[String: any Sendable]]]>([:])

    /// Gives `customer` of `project` one subscription ending at `endsAt` (Unix seconds).
    func subscribe(project: String = "proj1", customer: String, id: String, endsAt: Int64, product: String = "pc_1m") {
        let subscription: [String: any Sendable] = [
            "object": "subscription", "id": id, "customer_id": customer, "product_id": product,
            "current_period_ends_at": endsAt * 1000, "ends_at": endsAt * 1000, "gives_access": endsAt > Int64(Date().timeIntervalSince1970),
            "status": endsAt > Int64(Date().timeIntervalSince1970) ? "active" : "expired", "environment": "production",
            "store": "app_store", "store_subscription_identifier": "otx-\(id)",
        ]
        customers.withLock { $0["\(project)/\(customer)"] = [subscription] }
    }

    /// Runs the fake on a free loopback port for the duration of `body`.
    func run<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        let router = Router()
        router.get("/v2/projects/{project}/customers/{customer}") { _, context in
            try self.answer(context, subscriptions: false)
        }
        router.get("/v2/projects/{project}/customers/{customer}/subscriptions") { _, context in
            try self.answer(context, subscriptions: true)
        }
        let port = Mutex<Int?>(nil)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } }
        )
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await app.runService(gracefulShutdownSignals: [])
                return nil
            }
            var bound: Int?
            for _ in 0..<300 where bound == nil {
                try await Task.sleep(for: .milliseconds(10))
                bound = port.withLock { $0 }
            }
            guard let bound else { throw CancellationError() }
            let result = try await body(URL(string: "http://127.0.0.1:\(bound)")!)
            group.cancelAll()
            return result
        }
    }

    private func answer(_ context: BasicRequestContext, subscriptions: Bool) throws -> Response {
        let project = context.parameters.get("project") ?? ""
        let customer = context.parameters.get("customer")?.removingPercentEncoding ?? ""
        let (status, object): (Int, Any) = customers.withLock { all in
            guard let items = all["\(project)/\(customer)"] else {
                return (404, ["object": "error", "type": "resource_missing", "message": "Customer not found"])
            }
            return subscriptions
                ? (200, ["object": "list", "items": items, "next_page": NSNull()])
                : (200, ["object": "customer", "id": customer, "project_id": project])
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
