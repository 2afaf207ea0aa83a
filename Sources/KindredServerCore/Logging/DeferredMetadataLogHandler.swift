import Logging

/// A log handler that writes `StreamLogHandler`'s lines but renders its metadata only when a
/// line is written.
///
/// `StreamLogHandler` re-renders all of its metadata every time an entry is set, and the server
/// sets two per request (Hummingbird's `hb.request.id` and Kindred's `request_id`), which cost
/// more than the rest of a `/health` request's middleware at a level that writes no line for it.
///
/// The handler is three words (the writer, the metadata, the level), so a `Logger` holds it inline:
/// a larger handler lives in a box that every logger copy shares, and setting an entry on a copy
/// (once per request) first copied the whole box.
public struct DeferredMetadataLogHandler: LogHandler {
    /// The line writer, shared by every copy; replaced, never changed, when the provider is set.
    private final class Writer: Sendable {
        let stream: StreamLogHandler
        init(_ stream: StreamLogHandler) { self.stream = stream }
    }

    private var writer: Writer

    /// The metadata of this logger, rendered into each line it writes.
    public var metadata: Logger.Metadata = [:]

    /// The least severe level written.
    public var logLevel: Logger.Level

    /// The metadata provider consulted for each line.
    public var metadataProvider: Logger.MetadataProvider? {
        get { writer.stream.metadataProvider }
        set {
            var stream = writer.stream
            stream.metadataProvider = newValue
            writer = Writer(stream)
        }
    }

    /// A handler writing to standard error, in `StreamLogHandler`'s format.
    /// - Parameter label: the logger's label.
    public static func standardError(label: String) -> DeferredMetadataLogHandler {
        DeferredMetadataLogHandler(stream: .standardError(label: label))
    }

    /// A handler writing through `stream` (whose own metadata it leaves empty).
    package init(stream: StreamLogHandler) {
        writer = Writer(stream)
        logLevel = stream.logLevel
    }

    /// One entry of the metadata.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line: this logger's metadata, overridden by the event's own.
    public func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        writer.stream.log(event: event)
    }
}
