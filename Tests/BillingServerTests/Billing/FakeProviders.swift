@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A local stand-in for Stripe's and RevenueCat's REST APIs on a loopback port, answering in
/// their documented shapes from what a test put in it, and recording every request.
final class FakeProviders: Sendable {
    /// What the fake holds.
    struct State {
        /// Stripe checkout sessions by id (answered with `subscription` expanded).
        var sessions: [String: [String: Any]] = [:]
        /// Stripe subscriptions by customer.
        var subscriptions: [String: [[String: Any]]] = [:]
        /// Stripe invoices by customer.
        var invoices: [String: [[String: Any]]] = [:]
        /// RevenueCat subscriptions by "project/customer"; a customer absent here answers 404.
        var revenueCat: [String: [[String: Any]]] = [:]
        /// Status answered by every Stripe route instead (e.g. 500), when set.
        var stripeFailure: Int?
        /// Every request: "METHOD /path?query | Authorization | form body".
        var requests: [String] = []
    }

    // The state holds JSON-shaped dictionaries (`[String: Any]`), only touched under the lock.
    private let state = NIOLockedValueBox(UncheckedState(State()))

    private struct UncheckedState: @unchecked Sendable {
        var value: State
        init(_ value: State) { self.value = value }
    }

    /// Changes the state.
    func update(_ change: (inout State) -> Void) {
        state.withLockedValue { change(&$0.value) }
    }

    /// The requests so far.
    var requests: [String] { state.withLockedValue { $0.value.requests } }

    /// Runs the fake on a free loopback port for the duration of `body`.
    func run<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        let router = Router()
        router.post("/v1/checkout/sessions") { request, context in try await self.answer(request, context) }
        router.get("/v1/checkout/sessions/{id}") { request, context in try await self.answer(request, context) }
        router.get("/v1/subscriptions") { request, context in try await self.answer(request, context) }
        router.get("/v1/invoices") { request, context in try await self.answer(request, context) }
        router.get("/v2/projects/{project}/customers/{customer}") { request, context in try await self.answer(request, context) }
        router.get("/v2/projects/{project}/customers/{customer}/subscriptions") { request, context in
            try await self.answer(request, context)
        }
        let port = NIOLockedValueBox<Int?>(nil)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.withLockedValue { $0 = channel.localAddress?.port } }
        )
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await app.runService(gracefulShutdownSignals: [])
                return nil
            }
            var bound: Int?
            for _ in 0..<200 where bound == nil {
                try await Task.sleep(for: .milliseconds(10))
                bound = port.withLockedValue { $0 }
            }
            guard let bound else { throw CancellationError() }
            let result = try await body(URL(string: "http://127.0.0.1:\(bound)")!)
            group.cancelAll()
            return result
        }
    }

    private func answer(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        var request = request
        let form = String(buffer: try await request.collectBody(upTo: 1 << 20))
        let path = request.uri.path
        let query = request.uri.query ?? ""
        let line = "\(request.method.rawValue) \(path)\(query.isEmpty ? "" : "?\(query)") | \(request.headers[.authorization] ?? "") | \(form)"
        let (status, json): (Int, Any) = state.withLockedValue { box in
            box.value.requests.append(line)
            return Self.route(path: path, query: query, form: form, state: box.value)
        }
        let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        return Response(
            status: .init(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    private static func route(path: String, query: String, form: String, state: State) -> (Int, Any) {
        let parameters = Dictionary(
            (query + "&" + form).split(separator: "&").compactMap { pair -> (String, String)? in
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            },
            uniquingKeysWith: { $1 }
        )
        let segments = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        if path.hasPrefix("/v1/"), let failure = state.stripeFailure {
            return (failure, ["error": ["type": "api_error", "message": "fake failure"]])
        }
        switch (segments.first, segments.count) {
        case ("v1", 3) where segments[1] == "checkout":
            let id = "cs_test_\(parameters["client_reference_id"] ?? "none")"
            return (200, ["id": id, "object": "checkout.session", "url": "https://checkout.stripe.com/c/pay/\(id)", "status": "open"])
        case ("v1", 4) where segments[1] == "checkout":
            guard let session = state.sessions[segments[3]] else {
                return (404, ["error": ["type": "invalid_request_error", "code": "resource_missing"]])
            }
            return (200, session)
        case ("v1", 2) where segments[1] == "subscriptions":
            return (200, ["object": "list", "has_more": false, "data": state.subscriptions[parameters["customer"] ?? ""] ?? []])
        case ("v1", 2) where segments[1] == "invoices":
            return (200, ["object": "list", "has_more": false, "data": state.invoices[parameters["customer"] ?? ""] ?? []])
        case ("v2", 5), ("v2", 6):
            let key = "\(segments[2])/\(segments[4])"
            guard let subscriptions = state.revenueCat[key] else {
                return (404, ["object": "error", "type": "resource_missing", "message": "Customer not found"])
            }
            if segments.count == 5 {
                return (200, ["object": "customer", "id": segments[4], "project_id": segments[2]])
            }
            return (200, ["object": "list", "items": subscriptions, "next_page": NSNull(), "url": path])
        default:
            return (404, ["error": "no route"])
        }
    }
}
