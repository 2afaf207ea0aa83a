import CloserAPI
import Hummingbird
import KindredServerCore

/// Closer's operations the transport serves directly (`DirectRoutes`): `GET …/today`, half of
/// the requests of an answer-and-reveal cycle. Each answers as its generated path does
/// (`CloserDirectRoutesTests`): the same user check, the same controller call, the same JSON.
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
        return routes
    }

    /// Whether `id` is 1–36 of `0-9 a-f -`, which the URI decoder reads back unchanged (the
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
