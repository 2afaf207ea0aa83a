import HTTPTypes
import Metrics
import Synchronization

/// The request counter and timer of each (method, route, status), made through the metrics
/// factory once and then reused, so a request costs one dictionary lookup instead of two
/// registrations in the factory (which formats and looks up the labels each time).
final class RequestInstruments: Sendable {
    /// What the instruments are labelled with.
    struct Key: Hashable, Sendable {
        var method: HTTPRequest.Method
        var route: String
        var status: Int
    }

    /// The two instruments of one key.
    struct Pair: Sendable {
        var requests: Counter
        var duration: Timer
    }

    /// The most keys kept; past it (a client inventing methods) instruments are made per request.
    static let capacity = 4096

    private let factory: any MetricsFactory
    private let cache = Mutex<[Key: Pair]>([:])

    /// Instruments registered through `factory`.
    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// The instruments of `key`, made on first use.
    func instruments(for key: Key) -> Pair {
        if let pair = cache.withLock({ $0[key] }) { return pair }
        let dimensions = [("method", key.method.rawValue), ("route", key.route), ("status", String(key.status))]
        let pair = Pair(
            requests: Counter(label: "kindred_http_requests_total", dimensions: dimensions, factory: factory),
            duration: Timer(label: "kindred_http_request_duration_seconds", dimensions: dimensions, factory: factory)
        )
        cache.withLock { cache in
            if cache.count < Self.capacity { cache[key] = pair }
        }
        return pair
    }
}
