import Logging

/// The default transport when no provider is configured: logs each push (type and token
/// suffix, never the content) and reports it accepted.
public struct LogPushTransport: PushTransport {
    private let logger: Logger

    /// Creates the transport.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Logs and accepts.
    public func send(_ message: PushMessage, to device: PushDevice) async -> PushResult {
        logger.info(
            "push (log transport)",
            metadata: ["type": "\(message.type)", "transport": "\(device.transport)", "token_suffix": "\(device.token.suffix(6))"]
        )
        return .accepted(providerID: message.id)
    }
}
