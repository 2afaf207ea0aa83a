import KindredStore
import Logging
import NIOConcurrencyHelpers

/// The realtime publisher for code built before the realtime hub: scheduled jobs are registered
/// on the platform first, and `buildServerParts` binds the hub's publisher here once the hub
/// exists. Unbound (in `kindred jobs`, with no hub), events are still stored, numbered and, on
/// PostgreSQL, announced with NOTIFY to every server; only in-process delivery needs the hub.
public final class RealtimeRelay: Sendable {
    private let bound = NIOLockedValueBox<RealtimePublisher?>(nil)
    private let fallback: RealtimePublisher

    /// A relay that publishes through its own store until a hub's publisher is bound.
    package init(database: Database, clock: any WallClock, logger: Logger) {
        let store = RealtimeEventStore(database: database)
        fallback = RealtimePublisher(store: store, clock: clock, broker: RealtimeBroker(store: store, logger: logger))
    }

    /// Makes `publisher` (the hub's) the one handed out from now on.
    public func bind(_ publisher: RealtimePublisher) {
        bound.withLockedValue { $0 = publisher }
    }

    /// The hub's publisher once bound, otherwise the relay's own.
    public var publisher: RealtimePublisher {
        bound.withLockedValue { $0 } ?? fallback
    }
}
