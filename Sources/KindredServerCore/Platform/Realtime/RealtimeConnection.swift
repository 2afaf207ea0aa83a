import HummingbirdWebSocket
import NIOConcurrencyHelpers

/// One client's WebSocket: reads its frames, writes queued frames, sends heartbeats and ends
/// its subscriptions when it closes.
///
/// Three tasks share the socket: a reader (client frames, handled one at a time), a writer
/// (the only one that writes, in queue order) and a heartbeat. The connection ends when the
/// client closes, misses two pings, or reads too slowly for its queue.
struct RealtimeConnection: Sendable {
    let hub: RealtimeHub
    let identity: RealtimeIdentity

    /// The subscriptions of this connection by channel name.
    final class Subscriptions: Sendable {
        let byChannel = NIOLockedValueBox<[String: RealtimeSubscription]>([:])
    }

    private enum Role: Sendable { case reader, writer, heartbeat }

    /// Serves the connection until it ends.
    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let (frames, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(hub.settings.outboundQueueLimit)
        )
        let outbox = RealtimeOutbox(continuation)
        let subscriptions = Subscriptions()
        let unansweredPings = NIOLockedValueBox(0)
        let settings = hub.settings
        let registration = hub.sessions.add(identity, outbox: outbox)
        defer { hub.sessions.remove(registration) }

        await withTaskGroup(of: Role.self) { group in
            group.addTask {
                for await frame in frames {
                    do {
                        try await outbound.write(.text(frame))
                    } catch {
                        break
                    }
                }
                return .writer
            }
            group.addTask {
                // The first beat comes after 50–100 % of the interval, so sockets opened
                // together (a server restart's reconnect wave) do not all beat in the same instant.
                var wait = settings.heartbeatInterval * Double.random(in: 0.5...1.0)
                while !Task.isCancelled {
                    do {
                        try await Task.sleep(for: wait)
                    } catch {
                        break
                    }
                    wait = settings.heartbeatInterval
                    let missed = unansweredPings.withLockedValue { count in
                        defer { count += 1 }
                        return count
                    }
                    if missed >= 2 {
                        outbox.send(RealtimeFrame.error(.heartbeatMissed))
                        outbox.finish()
                        break
                    }
                    if let ended = await sessionEnded() {
                        outbox.send(RealtimeFrame.error(ended))
                        outbox.finish()
                        break
                    }
                    outbox.send(RealtimeFrame.ping)
                }
                return .heartbeat
            }
            group.addTask {
                do {
                    for try await message in inbound.messages(maxSize: settings.maxClientFrameSize) {
                        guard case .text(let text) = message else {
                            outbox.send(RealtimeFrame.error(.badRequest("frames are JSON text")))
                            continue
                        }
                        await handle(text, outbox: outbox, subscriptions: subscriptions, pings: unansweredPings)
                    }
                } catch {
                    outbox.send(RealtimeFrame.error(.badRequest("frames are at most \(settings.maxClientFrameSize) bytes")))
                }
                outbox.finish()
                return .reader
            }
            // The writer ends last: after the reader or heartbeat finished the queue, or when
            // the socket fails. Then nothing is left to do.
            while let role = await group.next() {
                if role == .writer {
                    outbox.finish()
                    group.cancelAll()
                }
            }
        }
        for subscription in subscriptions.byChannel.withLockedValue({ Array($0.values) }) {
            subscription.close(sending: nil)
            await hub.broker.detach(subscription)
        }
    }

    /// Whether the connection's session ended since the last heartbeat (a revocation no
    /// notification announced, such as `kindred users disable` on SQLite): the refusal, or nil
    /// while the session is open or the database cannot say (a fault does not drop clients).
    private func sessionEnded() async -> KindredError? {
        let tokens = hub.tokens
        let identity = identity
        return await hub.sessionChecks.ended(sessionID: identity.sessionID, userID: identity.userID) {
            do {
                _ = try await tokens.authenticate(sessionID: identity.sessionID, userID: identity.userID)
                return nil
            } catch let error as KindredError {
                return error
            } catch {
                return nil
            }
        }
    }

    /// Handles one client frame.
    private func handle(
        _ text: String, outbox: RealtimeOutbox, subscriptions: Subscriptions, pings: NIOLockedValueBox<Int>
    ) async {
        let frame: RealtimeFrame.Client
        do {
            frame = try RealtimeFrame.parse(text)
        } catch {
            outbox.send(RealtimeFrame.error(error))
            return
        }
        switch frame {
        case .pong:
            pings.withLockedValue { $0 = 0 }
        case .unsubscribe(let channel):
            guard let subscription = subscriptions.byChannel.withLockedValue({ $0.removeValue(forKey: channel) }) else {
                outbox.send(RealtimeFrame.unsubscribed(channel, reason: "requested"))
                return
            }
            if subscription.close(sending: RealtimeFrame.unsubscribed(channel, reason: "requested")) {
                await hub.broker.detach(subscription)
            }
        case .subscribe(let channel, let after):
            await subscribe(channel, after: after, outbox: outbox, subscriptions: subscriptions)
        }
    }
}
