import BillingServer
import KindredServer
import KindredServerCore
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import Synchronization
import Testing

/// A scripted realtime client for tests: sends frames and reads the server's frames in order.
package final class RealtimeProbe: Sendable {
    /// Why reading failed.
    package struct Timeout: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    private let state = Mutex<(frames: [String], closed: Bool)>(([], false))
    private let outbound: WebSocketOutboundWriter

    package init(outbound: WebSocketOutboundWriter) {
        self.outbound = outbound
    }

    /// Sends a text frame.
    package func send(_ text: String) async throws {
        try await outbound.write(.text(text))
    }

    /// Subscribes (`after` when given) and returns the `subscribed` frame.
    @discardableResult
    package func subscribe(_ channel: String, after: Int64? = nil) async throws -> String {
        if let after {
            try await send(#"{"op":"subscribe","channel":"\#(channel)","after":\#(after)}"#)
        } else {
            try await send(#"{"op":"subscribe","channel":"\#(channel)"}"#)
        }
        return try await next()
    }

    /// The next frame from the server, within `timeout`.
    /// - Throws: `Timeout` when none arrives or the connection closed.
    package func next(timeout: Duration = .seconds(10)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let (frame, closed) = state.withLock { state -> (String?, Bool) in
                state.frames.isEmpty ? (nil, state.closed) : (state.frames.removeFirst(), state.closed)
            }
            if let frame { return frame }
            if closed { throw Timeout(description: "the connection closed") }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw Timeout(description: "no frame within \(timeout)")
    }

    /// Waits until the server closes the connection; returns the frames that came before.
    package func closed(timeout: Duration = .seconds(10)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let frames = state.withLock({ $0.closed ? $0.frames : nil }) { return frames }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw Timeout(description: "still open after \(timeout)")
    }

    /// Asserts that no frame arrives within `window`.
    package func expectSilence(for window: Duration) async throws {
        try await Task.sleep(for: window)
        let frames = state.withLock { $0.frames }
        #expect(frames == [])
    }

    fileprivate func received(_ frame: String) {
        state.withLock { $0.frames.append(frame) }
    }

    fileprivate func finished() {
        state.withLock { $0.closed = true }
    }

    /// Opens `GET /v1/realtime` on the loopback port, runs `script`, then closes.
    /// - Parameters:
    ///   - query: e.g. `?ticket=…`.
    ///   - token: a bearer token (with `app` as `X-Kindred-App`).
    ///   - answerPings: reply `pong` to every `ping` (and hide pings from `next()`).
    /// - Throws: when the upgrade is refused, or what `script` throws.
    package static func connect(
        port: Int, query: String = "", app: String? = "closer", token: String? = nil, answerPings: Bool = true,
        _ script: @escaping @Sendable (RealtimeProbe) async throws -> Void
    ) async throws {
        var headers = HTTPFields()
        if let app { headers[HTTPField.Name("X-Kindred-App")!] = app }
        if let token { headers[.authorization] = "Bearer \(token)" }
        var logger = Logger(label: "probe")
        logger.logLevel = .critical
        try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/v1/realtime\(query)",
            configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers), logger: logger
        ) { inbound, outbound, _ in
            let probe = RealtimeProbe(outbound: outbound)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { probe.finished() }
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        if answerPings, text == #"{"op":"ping"}"# {
                            try await outbound.write(.text(#"{"op":"pong"}"#))
                        } else {
                            probe.received(text)
                        }
                    }
                }
                try await script(probe)
                group.cancelAll()
            }
        }
    }
}
