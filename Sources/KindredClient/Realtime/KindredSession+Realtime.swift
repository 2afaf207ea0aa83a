import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging

/// How a realtime subscription reconnects.
public struct RealtimeReconnectPolicy: Sendable, Equatable {
    /// The wait after the first failure; doubled after each further one.
    public var initialDelay: Duration
    /// The longest wait.
    public var maximumDelay: Duration

    /// The default: 0.5 s doubling up to 30 s, with ±20 % jitter.
    public init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30)) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before reconnect attempt `attempt` (0 for the first retry), jittered.
    func delay(attempt: Int) -> Duration {
        let base = initialDelay * (1 << min(attempt, 20))
        let capped = min(base, maximumDelay)
        return capped * Double.random(in: 0.8...1.2)
    }
}

extension KindredSession {
    /// Subscribes to a realtime channel: events in order, each once, across reconnects.
    ///
    /// The sequence opens `GET /v1/realtime` with the session's access token, subscribes, and
    /// answers the server's pings. When the connection drops it reconnects with backoff and
    /// resubscribes after the last sequence number it yielded, so nothing is missed or repeated;
    /// when the server no longer has the missed events it yields `.gap` (re-read the state).
    /// It ends with an error when the session is over (`sessionExpired`, `notSignedIn`) or the
    /// channel is refused (`server` with `channel_forbidden`, `invalid_channel`), and ends
    /// quietly when the consuming task is cancelled.
    /// - Parameters:
    ///   - channel: e.g. `user:<id>`.
    ///   - after: the last sequence number already seen (nil: only new events).
    ///   - reconnect: the backoff between attempts.
    ///   - startWithGap: when `after` is nil, yield `.gap(from: 0, to: seq)` as soon as the server
    ///     has confirmed the subscription at `seq`: a state read then sees everything before
    ///     the events that follow (a live view that reads, then follows, misses nothing).
    /// - Returns: the messages.
    public nonisolated func subscribe(
        channel: String, after: Int64? = nil, reconnect: RealtimeReconnectPolicy = RealtimeReconnectPolicy(),
        startWithGap: Bool = false
    ) -> AsyncThrowingStream<RealtimeMessage, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: RealtimeMessage.self)
        let runner = RealtimeSubscriptionRunner(
            session: self, channel: channel, cursor: RealtimeCursor(after), policy: reconnect, output: continuation,
            startWithGap: startWithGap && after == nil
        )
        let task = Task { await runner.run() }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The WebSocket URL of the server: `ws(s)://host:port/v1/realtime`.
    nonisolated var realtimeURL: String {
        var components = URLComponents(url: serverURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        components.path = components.path.hasSuffix("/") ? components.path + "v1/realtime" : components.path + "/v1/realtime"
        return components.string ?? "ws://127.0.0.1/v1/realtime"
    }
}

/// The last sequence number a subscription yielded, shared across its connections.
actor RealtimeCursor {
    private(set) var last: Int64?
    /// Whether the current connection got its `subscribed` (then the backoff starts over).
    private(set) var connected = false

    init(_ last: Int64?) { self.last = last }

    /// Records a yielded event; false when it was already yielded (dropped).
    func advance(to seq: Int64) -> Bool {
        if let last, seq <= last { return false }
        last = seq
        return true
    }

    /// The server's sequence number when the current connection subscribed.
    private var head: Int64 = 0

    /// Starts from the server's sequence number when the caller gave none.
    /// - Returns: whether this was the first start of a cursor without a position.
    @discardableResult
    func start(at seq: Int64) -> Bool {
        connected = true
        head = seq
        guard last == nil else { return false }
        last = seq
        return true
    }

    /// The cursor was beyond the server's numbering: continue from the server's.
    /// - Returns: the gap to report.
    func rewind() -> (from: Int64, to: Int64) {
        let from = (last ?? 0) + 1
        last = head
        return (from, head)
    }

    func disconnected() { connected = false }
}
