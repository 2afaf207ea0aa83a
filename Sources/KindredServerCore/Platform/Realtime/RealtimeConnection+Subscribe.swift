extension RealtimeConnection {
    /// Checks the channel and the user's right to read it, then starts the subscription:
    /// `subscribed`, a `gap` if events after `after` are no longer retained, the retained
    /// events after `after`, then live events, each exactly once and in order.
    ///
    /// The subscription joins the broker before the database is read, holding live events
    /// back; whatever commits meanwhile arrives either in the replay or live, and the
    /// subscription's last sent sequence number drops the overlap.
    func subscribe(_ name: String, after: Int64?, outbox: RealtimeOutbox, subscriptions: Subscriptions) async {
        let channel: RealtimeChannel
        do {
            channel = try RealtimeChannel(name)
        } catch {
            outbox.send(RealtimeFrame.error(error, channel: name))
            return
        }
        if let existing = subscriptions.byChannel.withLockedValue({ $0.removeValue(forKey: name) }) {
            // Subscribing again restarts the subscription from the new `after`.
            existing.close(sending: nil)
            await hub.broker.detach(existing)
        }
        guard subscriptions.byChannel.withLockedValue({ $0.count }) < hub.settings.maxSubscriptionsPerConnection else {
            outbox.send(RealtimeFrame.error(.tooManySubscriptions(hub.settings.maxSubscriptionsPerConnection), channel: name))
            return
        }
        do {
            guard try await hub.authorizers.mayRead(channel, userID: identity.userID, app: identity.app) else {
                outbox.send(RealtimeFrame.error(.channelForbidden(name), channel: name))
                return
            }
            let subscription = RealtimeSubscription(channel: name, identity: identity, outbox: outbox)
            try await hub.broker.attach(subscription)
            subscriptions.byChannel.withLockedValue { $0[name] = subscription }
            do {
                try await replay(subscription, after: after)
            } catch {
                subscriptions.byChannel.withLockedValue { $0[name] = nil }
                subscription.close(sending: RealtimeFrame.error(.internal, channel: name))
                await hub.broker.detach(subscription)
                hub.logger.error("realtime: replay failed", metadata: ["channel": "\(name)", "error": "\(error)"])
            }
        } catch {
            outbox.send(RealtimeFrame.error(.internal, channel: name))
            hub.logger.error("realtime: subscribe failed", metadata: ["channel": "\(name)", "error": "\(error)"])
        }
    }

    /// Sends `subscribed`, the gap and the retained events after `after`, then goes live.
    private func replay(_ subscription: RealtimeSubscription, after: Int64?) async throws {
        let name = subscription.channel
        let head = try await hub.store.lastSequence(name)
        guard let after, after < head else {
            var first = [RealtimeFrame.subscribed(name, seq: head)]
            if let after, after > head {
                // The client knows more than the server ever numbered (a restored database):
                // it must re-read state like after a gap.
                first.append(RealtimeFrame.error(.sequenceAhead(after, head: head), channel: name))
            }
            subscription.start(at: head, sending: first)
            subscription.goLive()
            return
        }
        var from = after
        var first = [RealtimeFrame.subscribed(name, seq: head)]
        let oldest = try await hub.store.oldestRetained(name)
        if oldest.map({ $0 > after + 1 }) ?? true {
            let lost = min(head, (oldest ?? head + 1) - 1)
            first.append(RealtimeFrame.gap(name, from: after + 1, to: lost))
            from = lost
        }
        subscription.start(at: from, sending: first)
        let pageSize = 500
        while from < head {
            let page = try await hub.store.events(name, after: from, limit: pageSize)
            for event in page { subscription.replay(event) }
            guard let last = page.last, page.count == pageSize else { break }
            from = last.seq
        }
        subscription.goLive()
    }
}
