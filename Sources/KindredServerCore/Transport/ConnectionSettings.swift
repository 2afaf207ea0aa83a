/// How long a client connection may take and how many may be open: the defences against slow
/// clients (slowloris heads and bodies, idle sockets, clients that stop reading) exhausting the server's file descriptors.
///
/// `ConnectionDeadlineHandler` enforces the four timeouts on every connection;
/// `LimitedChildChannel` refuses connections beyond `maxConnections` with a 503. Defaults are
/// production values; the settings `server.*` change them (`docs/server.md`).
public struct ConnectionSettings: Sendable, Equatable {
    /// How long a connection may stay open with no request in progress: after it opens, and
    /// after each response, until the first byte of the next request (`server.idleTimeoutSeconds`).
    public var idleTimeout: Duration = .seconds(60)
    /// How long a request head may take from its first byte until it is complete
    /// (`server.requestHeadTimeoutSeconds`); a late head gets 408 and the connection closes.
    public var requestHeadTimeout: Duration = .seconds(10)
    /// How long a request body may take from the end of its head until its last byte
    /// (`server.requestBodyTimeoutSeconds`); a late body closes the connection.
    public var requestBodyTimeout: Duration = .seconds(60)
    /// How long a connection's outgoing bytes may stay stuck (the socket's send buffer and the
    /// channel's above its high-water mark because the client does not read its answer or its
    /// WebSocket events) before the connection is closed (`server.responseWriteTimeoutSeconds`).
    /// Runs in every phase, WebSockets included; reset whenever the client reads again.
    public var writeStallTimeout: Duration = .seconds(30)
    /// The most connections open at once (`server.maxConnections`, HTTP and WebSocket alike);
    /// the next one gets 503 `too_many_connections` and is closed.
    public var maxConnections: Int = 4096

    /// The defaults.
    public init() {}
}
