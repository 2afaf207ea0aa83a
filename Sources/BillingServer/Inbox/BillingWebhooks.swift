import KindredServerCore
import Foundation
import HTTPTypes
import Hummingbird
import KindredStore
import NIOCore

/// `POST /v1/webhooks/revenuecat` and `POST /v1/webhooks/stripe` on the plain router (raw
/// bodies for signatures): verify, read the event's id, type and time (400 without them), write
/// to the inbox (committed), then answer 200. The rest of the event is read when it is applied:
/// an authentic event this version cannot read is kept and dead-lettered, never refused (a
/// refused event is lost once the provider stops retrying). Other methods answer 405.
struct BillingWebhooks: Sendable {
    let settings: BillingSettings
    let queue: WorkQueue
    let clock: any WallClock

    /// The paths (exempt from `X-Kindred-App`: providers do not send it).
    static let revenueCatPath = "/v1/webhooks/revenuecat"
    static let stripePath = "/v1/webhooks/stripe"

    /// Adds both routes (and 405 for their other methods).
    func register(on router: Router<KindredRequestContext>) {
        router.post(RouterPath(Self.revenueCatPath)) { request, context in
            try await self.revenueCat(request, context: context)
        }
        router.post(RouterPath(Self.stripePath)) { request, context in
            try await self.stripe(request, context: context)
        }
        for path in [Self.revenueCatPath, Self.stripePath] {
            for method in [HTTPRequest.Method.get, .put, .patch, .delete, .head, .options] {
                router.on(RouterPath(path), method: method) { _, _ -> Response in throw KindredError.methodNotAllowed }
            }
        }
    }

    /// The RevenueCat webhook.
    func revenueCat(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let body = try await Self.rawBody(request, context: context)
        let authenticator = RevenueCatWebhookAuthenticator(
            authorization: settings.revenueCatWebhookAuthorization, signingKey: settings.revenueCatSigningKey
        )
        do {
            try authenticator.verify(
                authorizationHeader: request.headers[.authorization],
                signatureHeader: request.headers[HTTPField.Name("X-RevenueCat-Signature")!], body: body
            )
        } catch {
            switch error {
            case .notConfigured(let why):
                context.logger.error("RevenueCat webhook refused: \(why)")
                throw KindredError.webhookNotConfigured("the RevenueCat webhook is not configured on this server")
            case .unauthorized(let why):
                throw KindredError.invalidWebhookSignature(why)
            }
        }
        let event: RevenueCatWebhookHeader.Event
        do {
            event = try JSONDecoder().decode(RevenueCatWebhookHeader.self, from: Data(body)).event
        } catch {
            throw KindredError.malformedEvent("the body is not a RevenueCat webhook event")
        }
        let maxAge = settings.revenueCatMaxEventAge
        if maxAge > .zero {
            let nowMS = clock.now().millisecondsSince1970
            let limit = maxAge.components.seconds * 1_000
            if abs(nowMS - event.eventTimestampMs) > limit {
                context.logger.warning("RevenueCat event \(event.id) refused: its time is \((nowMS - event.eventTimestampMs) / 1_000) s from now")
                throw KindredError.staleEvent(
                    "event_timestamp_ms is more than \(maxAge.components.seconds) s from the server's time; reconcile with `kindred billing sync`")
            }
        }
        return try await accept(provider: .revenuecat, eventID: event.id, type: event.type, body: body)
    }

    /// The Stripe webhook.
    func stripe(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let body = try await Self.rawBody(request, context: context)
        let signature = StripeSignature(secret: settings.stripeWebhookSecret, tolerance: settings.stripeTolerance)
        do {
            try signature.verify(header: request.headers[HTTPField.Name("Stripe-Signature")!], payload: body, now: clock.now())
        } catch {
            if error == .notConfigured {
                context.logger.error("Stripe webhook refused: \(error)")
                throw KindredError.webhookNotConfigured("the Stripe webhook is not configured on this server")
            }
            throw KindredError.invalidWebhookSignature(error.description)
        }
        let event: StripeEventHeader
        do {
            event = try JSONDecoder().decode(StripeEventHeader.self, from: Data(body))
        } catch {
            throw KindredError.malformedEvent("the body is not a Stripe event")
        }
        return try await accept(provider: .stripe, eventID: event.id, type: event.type, body: body)
    }

    /// Writes the event to the inbox and answers `{"received":true,"duplicate":…}`.
    private func accept(provider: BillingProvider, eventID: String, type: String, body: [UInt8]) async throws -> Response {
        guard (1...180).contains(eventID.utf8.count), (1...100).contains(type.utf8.count) else {
            throw KindredError.malformedEvent("the event id must be 1 to 180 bytes and the type 1 to 100")
        }
        let envelope = BillingInbox.Envelope(
            provider: provider, eventID: eventID, type: type, body: String(decoding: body, as: UTF8.self),
            receivedAt: clock.now().millisecondsSince1970
        )
        let accepted = try await BillingInbox.accept(envelope, queue: queue)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        let json = #"{"duplicate":\#(accepted == .duplicate),"received":true}"#
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    /// The whole body, up to the route's limit.
    static func rawBody(_ request: Request, context: KindredRequestContext) async throws -> [UInt8] {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        return Array(buffer.readableBytesView)
    }
}
