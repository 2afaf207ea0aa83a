import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A server child channel that applies `ConnectionSettings` to every connection: beyond
/// `maxConnections` open at once a new connection gets `ConnectionRefusalHandler`'s 503 and
/// nothing else; an admitted one gets the inner channel's pipeline with
/// `ConnectionDeadlineHandler` first and `RequestPhaseHandler` right after the HTTP decoder.
struct LimitedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    /// An admitted connection's inner value, or a refused connection.
    struct Value: ServerChildChannelValue {
        /// The connection.
        let channel: any Channel
        /// The inner channel's value; nil when the connection was refused.
        let inner: Inner.Value?
    }

    let inner: Inner
    let settings: ConnectionSettings
    /// The connections of this server (one count per server, shared by its connections).
    let count: ConnectionCount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard count.admit(limit: settings.maxConnections) else {
            logger.debug("connection refused: \(settings.maxConnections) connections are open")
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ConnectionRefusalHandler())
                return Value(channel: channel, inner: nil)
            }
        }
        let count = count
        channel.closeFuture.whenComplete { _ in count.release() }
        let settings = settings
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(RequestPhaseHandler(), position: .after(decoder))
            try pipeline.addHandler(ConnectionDeadlineHandler(settings: settings), position: .first)
            return Value(channel: channel, inner: value)
        }
    }

    func handle(value: Value, logger: Logger) async {
        if let innerValue = value.inner {
            await inner.handle(value: innerValue, logger: logger)
        } else {
            // The refusal handler closes the connection.
            try? await value.channel.closeFuture.get()
        }
    }
}
