import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging

/// The loop behind `KindredSession.subscribe(channel:)`: connect, subscribe, read, reconnect.
struct RealtimeSubscriptionRunner: Sendable {
    let session: KindredSession
    let channel: String
    let cursor: RealtimeCursor
    let policy: RealtimeReconnectPolicy
    let output: AsyncThrowingStream<RealtimeMessage, any Error>.Continuation
    /// Yield `.gap(0…seq)` once the first subscription is confirmed (`subscribe(startWithGap:)`).
    var startWithGap = false

    /// Why a connection ended for good.
    private struct Final: Error {
        var error: KindredClientError
    }

    /// The server ended the connection because the session ended: refresh (which fails for a
    /// revoked session and ends the stream) before connecting again.
    private struct SessionEnded: Error {}

    /// The server ended this channel's subscription but not the connection (`internal`):
    /// reconnect and resume, since the connection would otherwise stay open and silent.
    private struct Resubscribe: Error {}

    func run() async {
        var attempt = 0
        var logger = Logger(label: "kindred.realtime")
        logger.logLevel = .critical
        while !Task.isCancelled {
            let token: String
            do {
                token = try await session.accessTokenForRequest()
            } catch {
                return finish(throwing: error)
            }
            var upgraded = false
            var sessionEnded = false
            do {
                try await connect(token: token, logger: logger)
                upgraded = true
            } catch let final as Final {
                return finish(throwing: final.error)
            } catch is SessionEnded {
                // Connected, but the session is over: a refresh says whether it really is.
                sessionEnded = true
            } catch {
                upgraded = await cursor.connected
            }
            if Task.isCancelled { break }
            if upgraded, await cursor.connected {
                attempt = 0
            } else if !upgraded {
                // Refused or unreachable: a refused token is replaced (an ended session ends the stream).
                do {
                    _ = try await session.accessToken(replacing: token)
                } catch {
                    if error == .sessionExpired || error == .notSignedIn { return finish(throwing: error) }
                    // The server said the session ended and no new token can be had: it has.
                    if sessionEnded, case .server(401, _, _) = error { return finish(throwing: .sessionExpired) }
                }
            }
            await cursor.disconnected()
            try? await Task.sleep(for: policy.delay(attempt: attempt))
            attempt += 1
        }
        output.finish()
    }

    private func finish(throwing error: KindredClientError) {
        output.finish(throwing: error)
    }

    /// One connection: subscribe after the cursor, then yield until it closes.
    private func connect(token: String, logger: Logger) async throws {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        headers[HTTPField.Name("X-Kindred-App")!] = session.app.rawValue
        let channel = channel
        let cursor = cursor
        let output = output
        let startWithGap = startWithGap
        try await WebSocketClient.connect(
            url: session.realtimeURL, configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers), logger: logger
        ) { inbound, outbound, _ in
            let after = await cursor.last
            let subscribe = after.map { #"{"op":"subscribe","channel":\#(Self.quote(channel)),"after":\#($0)}"# }
                ?? #"{"op":"subscribe","channel":\#(Self.quote(channel))}"#
            try await outbound.write(.text(subscribe))
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message, let frame = RealtimeServerFrame(text) else { continue }
                switch frame.kind {
                case .ping:
                    try await outbound.write(.text(#"{"op":"pong"}"#))
                case .subscribed(let seq):
                    if await cursor.start(at: seq), startWithGap { output.yield(.gap(channel: channel, from: 0, to: seq)) }
                case .event(let event):
                    if case .event(_, let seq, _, _) = event, await cursor.advance(to: seq) { output.yield(event) }
                case .gap(let gap):
                    if case .gap(_, _, let to) = gap {
                        _ = await cursor.advance(to: to)
                        output.yield(gap)
                    }
                case .unsubscribed(let reason) where frame.channel == channel && reason == "forbidden":
                    throw Final(error: .server(status: 403, code: "channel_forbidden", message: "access to \(channel) was withdrawn"))
                case .unsubscribed:
                    break
                case .error(let code, let message):
                    switch code {
                    case "channel_forbidden", "invalid_channel", "too_many_subscriptions":
                        throw Final(error: .server(status: 403, code: code, message: message))
                    case "sequence_ahead":
                        // The server numbers from scratch (restored database): re-read state.
                        let (from, to) = await cursor.rewind()
                        output.yield(.gap(channel: channel, from: from, to: to))
                    case "session_revoked", "account_disabled":
                        throw SessionEnded()
                    default:
                        // About this channel (`internal`): the subscription ended, the connection
                        // did not; reconnect and resume. Others (heartbeat_missed, shutting_down):
                        // the server closes the connection, which is then resumed.
                        if frame.channel == channel { throw Resubscribe() }
                    }
                }
            }
        }
    }

    /// A string as a JSON string literal.
    static func quote(_ string: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [string], options: [])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
