/// The refusals of the realtime service, each with its stable code.
extension KindredError {
    /// 400 `invalid_channel`: the channel name is malformed.
    package static func invalidChannel(_ why: String) -> KindredError {
        refused(status: 400, code: "invalid_channel", message: why)
    }
    /// 403 `channel_forbidden`: the user may not read the channel.
    package static func channelForbidden(_ channel: String) -> KindredError {
        refused(status: 403, code: "channel_forbidden", message: "you may not read the channel \(channel.prefix(200))")
    }
    /// 401 `invalid_ticket`: the ticket is unknown, used or expired.
    package static let invalidTicket = refused(
        status: 401, code: "invalid_ticket",
        message: "the realtime ticket is unknown, already used or expired; ask for a new one"
    )
    /// 426 `websocket_required`: `/v1/realtime` only answers WebSocket upgrades.
    package static let webSocketRequired = refused(
        status: 426, code: "websocket_required", message: "GET /v1/realtime must be a WebSocket upgrade"
    )
}

extension KindredError {
    /// `heartbeat_missed`: the client left two pings unanswered; the connection ends.
    package static let heartbeatMissed = refused(
        status: 408, code: "heartbeat_missed", message: "two pings went unanswered; reconnect and resume"
    )
    /// `shutting_down`: the server is stopping; the connection ends, reconnect (to another
    /// replica, or after the restart) and resume.
    package static let shuttingDown = refused(
        status: 503, code: "shutting_down", message: "the server is shutting down; reconnect and resume"
    )
    /// `too_many_subscriptions`: the connection already has the most subscriptions allowed.
    package static func tooManySubscriptions(_ limit: Int) -> KindredError {
        refused(status: 429, code: "too_many_subscriptions", message: "a connection may subscribe to at most \(limit) channels")
    }
    /// `too_many_sockets`: the user already has the most WebSockets allowed open.
    package static func tooManySockets(_ limit: Int) -> KindredError {
        refused(
            status: 429, code: "too_many_sockets",
            message: "an account may have at most \(limit) realtime connections open; close one and retry"
        )
    }
    /// `sequence_ahead`: `after` is beyond the channel's last sequence number; re-read state.
    package static func sequenceAhead(_ after: Int64, head: Int64) -> KindredError {
        refused(
            status: 409, code: "sequence_ahead",
            message: "after \(after) is beyond the channel's last sequence number \(head); re-read state and continue from \(head)"
        )
    }
}
