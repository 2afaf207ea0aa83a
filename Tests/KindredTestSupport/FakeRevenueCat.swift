import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A local stand-in for RevenueCat's REST API v2 (the two reads a sync makes), answering in its
/// documented shapes from what a test put in it, over plain HTTP/1.1 on a free loopback port.
/// Point a server at it with `KINDRED_REVENUECAT_BASE_URL` (and a project and key).
public final class FakeRevenueCat: Sendable {
    /// Subscriptions by "project/customer"; a customer absent here answers 404.
    private let customers = NIOLockedValueBox<[String: [[String: any Sendable]]]>([:])
    /// Subscriber attributes (`$email`, `$displayName`, …) by "project/customer".
    private let attributes = NIOLockedValueBox<[String: [String: String]]>([:])
    private let received = NIOLockedValueBox<[String]>([])

    /// Creates an empty fake: every customer answers 404 until `subscribe` adds one.
    public init() {}

    /// Each request so far as `"<method> <path> <authorization>"`.
    public var requests: [String] { received.withLockedValue { $0 } }

    /// Gives `customer` of `project` one subscription ending at `endsAt` (Unix seconds).
    /// - Parameter storeIdentifier: the store's id of the subscription (the lineage a sync
    ///   appends to: an App Store original transaction id); `otx-<id>` when nil.
    public func subscribe(
        project: String = "proj1", customer: String, id: String, endsAt: Int64, product: String = "pc_1m",
        storeIdentifier: String? = nil
    ) {
        let now = Int64(Date().timeIntervalSince1970)
        let subscription: [String: any Sendable] = [
            "object": "subscription", "id": id, "customer_id": customer, "product_id": product,
            "current_period_ends_at": endsAt * 1000, "ends_at": endsAt * 1000, "gives_access": endsAt > now,
            "status": endsAt > now ? "active" : "expired", "environment": "production",
            "store": "app_store", "store_subscription_identifier": storeIdentifier ?? "otx-\(id)",
        ]
        customers.withLockedValue { $0["\(project)/\(customer)"] = [subscription] }
    }

    /// Gives `customer` of `project` subscriber attributes (name to value, e.g. `$email`), which
    /// the customer object then carries under `attributes` as RevenueCat's expanded list.
    public func setAttributes(_ values: [String: String], project: String = "proj1", customer: String) {
        attributes.withLockedValue { $0["\(project)/\(customer)"] = values }
    }

    /// Runs the fake on a free loopback port for the duration of `body`.
    /// - Parameter body: receives the base URL (`http://127.0.0.1:<port>`).
    public func run<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                // Handlers are added on the channel's own event loop (they are not Sendable).
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(Handler { head in self.answer(head) })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let base = URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!
        do {
            let result = try await body(base)
            try? await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// The status and JSON body for a request.
    private func answer(_ head: HTTPRequestHead) -> (status: Int, body: Data) {
        received.withLockedValue { $0.append("\(head.method.rawValue) \(head.uri) \(head.headers["authorization"].first ?? "-")") }
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let parts = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        let object: (Int, Any)
        if head.method == .GET, parts.count == 5 || (parts.count == 6 && parts[5] == "subscriptions"),
            parts[0] == "v2", parts[1] == "projects", parts[3] == "customers"
        {
            object = answer(project: parts[2], customer: parts[4], subscriptions: parts.count == 6)
        } else {
            object = (404, ["object": "error", "type": "resource_missing", "message": "No such route"])
        }
        let data = (try? JSONSerialization.data(withJSONObject: object.1, options: [.sortedKeys])) ?? Data()
        return (object.0, data)
    }

    private func answer(project: String, customer: String, subscriptions: Bool) -> (Int, Any) {
        let key = "\(project)/\(customer)"
        guard let items = customers.withLockedValue({ $0[key] }) else {
            return (404, ["object": "error", "type": "resource_missing", "message": "Customer not found"])
        }
        if subscriptions {
            return (200, ["object": "list", "items": items, "next_page": NSNull()])
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        // `last_seen_at` changes with every read, so two answers are never the same text.
        var object: [String: Any] = ["object": "customer", "id": customer, "project_id": project, "last_seen_at": now]
        if let values = attributes.withLockedValue({ $0[key] }) {
            object["attributes"] = [
                "object": "list", "next_page": NSNull(),
                "items": values.keys.sorted().map { name -> [String: Any] in
                    ["object": "customer.attribute", "name": name, "value": values[name] ?? "", "updated_at": now]
                },
            ]
        }
        return (200, object)
    }

    /// Reads one request and writes its answer (keep-alive as the client asks).
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let respond: @Sendable (HTTPRequestHead) -> (status: Int, body: Data)
        var head: HTTPRequestHead?

        init(respond: @escaping @Sendable (HTTPRequestHead) -> (status: Int, body: Data)) {
            self.respond = respond
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
            case .body:
                break
            case .end:
                guard let head else { return }
                self.head = nil
                let (status, body) = respond(head)
                var headers = HTTPHeaders()
                headers.add(name: "content-type", value: "application/json")
                headers.add(name: "content-length", value: String(body.count))
                if !head.isKeepAlive { headers.add(name: "connection", value: "close") }
                context.write(wrapOutboundOut(.head(HTTPResponseHead(
                    version: head.version, status: .init(statusCode: status), headers: headers
                ))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
                if head.isKeepAlive {
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                } else {
                    let channel = context.channel
                    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
                }
            }
        }
    }
}
