import CloserAPI
import Hummingbird
import KindredServerCore

/// Closer's operations the transport serves directly (`DirectRoutes`): the requests of an
/// answer-and-reveal cycle, `GET …/today`, `PUT` and `PATCH …/answers/{userId}` and
/// `POST …/answers/{userId}/release-keys`. Each answers as its generated path does
/// (`CloserDirectRoutesTests`, `CloserDirectWritesTests`): the same user check (none of them is
/// rate limited), the same controller call, the same JSON. A request whose path parameters, body
/// or `Content-Type` the generated code would read differently is handed to it (nil).
extension CloserHandler {
    /// The path of `getCloserToday`, as the document writes it.
    static let todayPath = "/v1/closer/couples/{coupleId}/today"

    /// The direct handlers, for `DomainServer.transport(direct:)`.
    func directRoutes() -> DirectRoutes {
        var routes = DirectRoutes()
        routes.add(.get, Self.todayPath) { [self] request, context in
            // Anything the generated code would read differently goes to it: a couple id that
            // is percent-encoded, a query other than one plain `deviceId`.
            guard let coupleID = context.parameters.get("coupleId"), Self.isPlainCoupleID(coupleID),
                let query = Self.deviceQuery(request.uri.query)
            else { return nil }
            let day = try await closer.today(try await closerUser(), coupleID: coupleID, deviceID: query.deviceID)
            return DirectRoutes.json(try day.jsonBytes())
        }
        // The body is decoded before the user check, as the generated code decodes its input first.
        routes.add(.put, Self.answerPath) { [self] request, context in
            guard let p = Self.answerPathParameters(context.parameters),
                let body = try await DirectRoutes.jsonBody(Components.Schemas.CloserAnswerCreate.self, request, context: context)
            else { return nil }
            let answer = try await closer.createAnswer(
                try await closerUser(), coupleID: p.coupleID, date: p.date, userID: p.userID, body: body
            )
            return DirectRoutes.json(try answer.jsonBytes(), status: .created)
        }
        routes.add(.patch, Self.answerPath) { [self] request, context in
            guard let p = Self.answerPathParameters(context.parameters),
                let body = try await DirectRoutes.jsonBody(Components.Schemas.CloserRevealUpdate.self, request, context: context)
            else { return nil }
            let answer = try await closer.updateReveal(
                try await closerUser(), coupleID: p.coupleID, date: p.date, userID: p.userID, update: body
            )
            return DirectRoutes.json(try answer.jsonBytes())
        }
        routes.add(.post, Self.releaseKeysPath) { [self] request, context in
            guard let p = Self.answerPathParameters(context.parameters),
                let body = try await DirectRoutes.jsonBody(Components.Schemas.CloserReleaseKeysUpload.self, request, context: context)
            else { return nil }
            let keys = try await closer.createReleaseKeys(
                try await closerUser(), coupleID: p.coupleID, scope: .day(p.date), authorID: p.userID, upload: body
            )
            return DirectRoutes.json(try keys.jsonBytes(), status: .created)
        }
        return routes
    }

    /// The path of `createCloserAnswer` and `updateCloserAnswerReveal`, as the document writes it.
    static let answerPath = "/v1/closer/couples/{coupleId}/days/{date}/answers/{userId}"
    /// The path of `createCloserAnswerReleaseKeys`, as the document writes it.
    static let releaseKeysPath = "/v1/closer/couples/{coupleId}/days/{date}/answers/{userId}/release-keys"

    /// An answer's path parameters, read directly.
    struct AnswerPathParameters: Equatable {
        var coupleID: String
        var date: String
        var userID: String
    }

    /// The couple, date and author of an answer's path when each is plain (nothing the URI decoder
    /// would change); nil hands the request to the generated code.
    static func answerPathParameters(_ parameters: Hummingbird.Parameters) -> AnswerPathParameters? {
        guard let coupleID = parameters.get("coupleId"), isPlainCoupleID(coupleID),
            let date = parameters.get("date"), isPlainDate(date),
            let userID = parameters.get("userId"), isPlainCoupleID(userID)
        else { return nil }
        return AnswerPathParameters(coupleID: coupleID, date: date, userID: userID)
    }

    /// Whether `date` is 1–10 of `0-9 -` (the contract's pattern has already been checked on the
    /// decoded text).
    static func isPlainDate(_ date: String) -> Bool {
        (1...10).contains(date.utf8.count) && date.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// Whether `id` (a couple or account id) is 1–36 of `0-9 a-f -`, which the URI decoder reads back unchanged (the
    /// contract's pattern has already been checked on the decoded text).
    static func isPlainCoupleID(_ id: String) -> Bool {
        (1...36).contains(id.utf8.count)
            && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2D }
    }

    /// A query the direct handler reads as the generated code does.
    struct DeviceQuery: Equatable {
        /// The `deviceId`, if given.
        var deviceID: String?
    }

    /// The query when it is absent or exactly `deviceId=<id>` with an id of plain characters
    /// (`CloserShapes.isDeviceID`: nothing to decode); nil for any other query (repeated,
    /// percent-encoded, `+`, empty, other parameters), which the generated code reads.
    static func deviceQuery(_ query: String?) -> DeviceQuery? {
        guard let query else { return DeviceQuery(deviceID: nil) }
        let prefix = "deviceId=".utf8
        guard query.utf8.starts(with: prefix) else { return nil }
        let id = String(Substring(query.utf8.dropFirst(prefix.count)))
        guard CloserShapes.isDeviceID(id) else { return nil }
        return DeviceQuery(deviceID: id)
    }
}
