import NIOConcurrencyHelpers

/// The frames waiting to be written to one WebSocket, in order.
///
/// Bounded: a peer that reads too slowly loses its connection (and resumes from its last
/// sequence number) instead of growing the server's memory.
final class RealtimeOutbox: Sendable {
    private let continuation: AsyncStream<String>.Continuation

    init(_ continuation: AsyncStream<String>.Continuation) {
        self.continuation = continuation
    }

    /// Queues a frame; when the queue is full, ends the connection.
    func send(_ frame: String) {
        if case .dropped = continuation.yield(frame) { continuation.finish() }
    }

    /// Ends the stream after the frames already queued.
    func finish() {
        continuation.finish()
    }
}

/// One connection's subscription to one channel on this replica.
///
/// Live events arriving while the subscription is replaying are held back, then sent after
/// the replay, skipping what the replay already sent: no duplicates, no reordering.
final class RealtimeSubscription: Sendable {
    /// The channel's wire name.
    let channel: String
    /// Who subscribed.
    let identity: RealtimeIdentity
    let outbox: RealtimeOutbox

    private struct State {
        /// Live events held back during the replay; nil once live.
        var heldBack: [(seq: Int64, frame: String)]? = []
        /// The highest sequence number sent to the client.
        var lastSent: Int64 = 0
        var isClosed = false
    }
    private let state = NIOLockedValueBox(State())

    init(channel: String, identity: RealtimeIdentity, outbox: RealtimeOutbox) {
        self.channel = channel
        self.identity = identity
        self.outbox = outbox
    }

    /// Whether the subscription has ended.
    var isClosed: Bool { state.withLockedValue { $0.isClosed } }

    /// A live event, in channel order.
    func deliver(seq: Int64, frame: String) {
        state.withLockedValue { state in
            guard !state.isClosed else { return }
            if state.heldBack != nil {
                state.heldBack?.append((seq, frame))
            } else if seq > state.lastSent {
                state.lastSent = seq
                outbox.send(frame)
            }
        }
    }

    /// Sends a replayed event (during the replay only).
    func replay(_ event: RealtimeEvent) {
        state.withLockedValue { state in
            guard !state.isClosed, event.seq > state.lastSent else { return }
            state.lastSent = event.seq
            outbox.send(event.frame)
        }
    }

    /// Starts from `seq` (events up to it are known to the client), sends `first` frames
    /// (`subscribed`, `gap`) in order before anything else.
    func start(at seq: Int64, sending first: [String]) {
        state.withLockedValue { state in
            state.lastSent = seq
            for frame in first { outbox.send(frame) }
        }
    }

    /// Ends the replay: sends the held-back live events the replay did not cover, then goes live.
    func goLive() {
        state.withLockedValue { state in
            guard let heldBack = state.heldBack else { return }
            state.heldBack = nil
            guard !state.isClosed else { return }
            for (seq, frame) in heldBack where seq > state.lastSent {
                state.lastSent = seq
                outbox.send(frame)
            }
        }
    }

    /// Ends the subscription, sending `frame` (e.g. `unsubscribed`) if given. Idempotent.
    /// - Returns: whether this call ended it.
    @discardableResult
    func close(sending frame: String?) -> Bool {
        state.withLockedValue { state in
            guard !state.isClosed else { return false }
            state.isClosed = true
            state.heldBack = nil
            if let frame { outbox.send(frame) }
            return true
        }
    }
}

/// Who a realtime connection belongs to.
struct RealtimeIdentity: Sendable, Equatable {
    var userID: String
    var sessionID: String
    var app: AppID
}
