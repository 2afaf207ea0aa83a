import Logging
import KindredStore

/// This replica's fan-out: which subscriptions each channel has, and one pump per channel
/// that reads committed events from the database and hands them to those subscriptions in
/// sequence order.
///
/// The broker learns that a channel has new events from `committedHere(_:)` (after a local
/// commit: the next event in sequence is delivered from memory) or `notified(channel:seq:)`
/// (NOTIFY from another replica, or an event that is not the next one). It never trusts the
/// notification's order: the pump reads every row after the last one it delivered, so a late
/// or lost notification leaves no hole.
///
/// Pumps are child tasks of `runPumps()` (run by the hub's `run()`), never unstructured
/// tasks: when the hub stops, they are cancelled and awaited, so none reads the database
/// after the service has stopped.
actor RealtimeBroker {
    private struct Channel {
        var subscribers: [ObjectIdentifier: RealtimeSubscription] = [:]
        /// The last sequence number handed to the subscribers; nil while it is being read.
        var lastDelivered: Int64?
        /// The highest sequence number known to be committed.
        var wanted: Int64 = 0
        /// Whether a pump task runs (or the channel is initialising).
        var pumping = true
    }

    private var channels: [String: Channel] = [:]
    private let store: RealtimeEventStore
    private let logger: Logger
    /// Rows read per query when catching up.
    private let batchSize = 500
    /// Channels whose pump should start; consumed by `runPumps()`.
    private let pumpRequests: AsyncStream<String>
    private let pumpRequestsContinuation: AsyncStream<String>.Continuation
    /// Events committed here (`published`) and events handed to subscribers here (`delivered`), per minute.
    let activity: MinuteCounts

    init(store: RealtimeEventStore, logger: Logger, activity: MinuteCounts = MinuteCounts(clock: SystemClock())) {
        self.store = store
        self.logger = logger
        self.activity = activity
        (pumpRequests, pumpRequestsContinuation) = AsyncStream.makeStream(of: String.self)
    }

    /// Runs the channels' pumps as child tasks until the calling task is cancelled, then
    /// waits for them to end. Call it once (the hub's `run()` does).
    nonisolated func runPumps() async {
        await withDiscardingTaskGroup { group in
            for await name in pumpRequests {
                group.addTask { await self.pump(name) }
            }
            // Cancelled: the pumps see it at their next step; the group waits for them.
            group.cancelAll()
        }
        // Nothing starts a pump any more.
        pumpRequestsContinuation.finish()
    }

    /// Adds a subscription; the first of a channel reads the channel's last sequence number,
    /// from which live delivery starts.
    /// - Throws: when the database fails (the subscription is then not added).
    func attach(_ subscription: RealtimeSubscription) async throws {
        let name = subscription.channel
        if channels[name] != nil {
            channels[name]?.subscribers[ObjectIdentifier(subscription)] = subscription
            return
        }
        channels[name] = Channel(subscribers: [ObjectIdentifier(subscription): subscription])
        do {
            let last = try await store.lastSequence(name)
            guard channels[name] != nil else { return }
            // Read `wanted` before writing: `channels[name]?.x = f(channels[name])` would read
            // `channels` during its own modification (an exclusivity violation).
            let wanted = max(channels[name]?.wanted ?? 0, last)
            channels[name]?.lastDelivered = last
            channels[name]?.wanted = wanted
            channels[name]?.pumping = false
            startPumpIfNeeded(name)
        } catch {
            // Nobody can be served without the starting point: end every subscription that joined meanwhile.
            let others = channels[name].map { Array($0.subscribers.values) } ?? []
            for other in others where other !== subscription {
                other.close(sending: RealtimeFrame.error(.internal, channel: name))
            }
            channels[name] = nil
            throw error
        }
    }

    /// Removes a subscription; a channel without subscriptions is forgotten.
    func detach(_ subscription: RealtimeSubscription) {
        let name = subscription.channel
        channels[name]?.subscribers[ObjectIdentifier(subscription)] = nil
        if let channel = channels[name], channel.subscribers.isEmpty, !channel.pumping {
            channels[name] = nil
        }
    }

    /// Event `seq` of `channel` has committed. Ignored when nobody here subscribes to it.
    func notified(channel name: String, seq: Int64) {
        guard let channel = channels[name] else { return }
        channels[name]?.wanted = max(channel.wanted, seq)
        startPumpIfNeeded(name)
    }

    /// Events this replica has just committed: each is handed to the channel's subscriptions
    /// from memory when it is exactly the next one the channel expects and no pump is running
    /// (the common case: no database read between a commit and its delivery); anything else
    /// (a gap, a pump already catching up) falls back to `notified(channel:seq:)`, whose pump
    /// reads the rows in order.
    func committedHere(_ events: [RealtimeEvent]) {
        activity.add(events.count, to: RealtimeActivityKey.published)
        for event in events {
            let name = event.channel
            guard let channel = channels[name] else { continue }
            guard !channel.pumping, let last = channel.lastDelivered, event.seq == last + 1, channel.wanted <= last,
                !channel.subscribers.isEmpty
            else {
                notified(channel: name, seq: event.seq)
                continue
            }
            let frame = event.frame
            for subscriber in channel.subscribers.values { subscriber.deliver(seq: event.seq, frame: frame) }
            activity.add(to: RealtimeActivityKey.delivered)
            channels[name]?.lastDelivered = event.seq
            channels[name]?.wanted = event.seq
        }
    }

    /// After missing notifications (the listening connection was lost): checks every channel's
    /// last sequence number in the database.
    func resynchronise() async {
        for name in channels.keys {
            guard let last = try? await store.lastSequence(name) else { continue }
            notified(channel: name, seq: last)
        }
    }

    /// Ends every subscription and its connection with `shutting_down` (the hub has stopped,
    /// so they would get no more events); the clients resume elsewhere or after the restart.
    func closeAll() {
        for channel in channels.values {
            for subscription in channel.subscribers.values {
                subscription.close(sending: RealtimeFrame.error(.shuttingDown))
                subscription.outbox.finish()
            }
        }
        channels = [:]
    }

    /// The subscriptions of a channel.
    func subscriptions(on name: String) -> [RealtimeSubscription] {
        channels[name].map { Array($0.subscribers.values) } ?? []
    }

    /// The subscriptions of a user, on every channel.
    func subscriptions(of userID: String) -> [RealtimeSubscription] {
        channels.values.flatMap { $0.subscribers.values.filter { $0.identity.userID == userID } }
    }

    /// The number of subscriptions on this replica (for tests and metrics).
    var subscriptionCount: Int { channels.values.reduce(0) { $0 + $1.subscribers.count } }

    /// The channels with subscribers here, and the `limit` with the most (ties by name).
    func channelSummary(limit: Int) -> RealtimeChannelSummary {
        let counts = channels.compactMap { name, channel -> (channel: String, subscribers: Int)? in
            channel.subscribers.isEmpty ? nil : (channel: name, subscribers: channel.subscribers.count)
        }
        let busiest = counts.sorted { ($1.subscribers, $0.channel) < ($0.subscribers, $1.channel) }.prefix(max(0, limit))
        return RealtimeChannelSummary(channels: counts.count, busiest: Array(busiest))
    }

    private func startPumpIfNeeded(_ name: String) {
        guard let channel = channels[name], !channel.pumping, let last = channel.lastDelivered,
            channel.wanted > last
        else { return }
        channels[name]?.pumping = true
        if case .terminated = pumpRequestsContinuation.yield(name) {
            // The hub has stopped: no pump runs any more.
            channels[name]?.pumping = false
        }
    }

    /// Delivers every committed event after `lastDelivered`, in order, until caught up or cancelled.
    private func pump(_ name: String) async {
        var failures = 0
        defer { if Task.isCancelled { channels[name]?.pumping = false } }
        while !Task.isCancelled, let channel = channels[name], let last = channel.lastDelivered {
            if channel.subscribers.isEmpty {
                channels[name] = nil
                return
            }
            guard channel.wanted > last else {
                channels[name]?.pumping = false
                return
            }
            let events: [RealtimeEvent]
            do {
                events = try await store.events(name, after: last, limit: batchSize)
                failures = 0
            } catch {
                failures += 1
                logger.warning("realtime: reading events failed", metadata: ["channel": "\(name)", "error": "\(error)"])
                try? await Task.sleep(for: .milliseconds(min(5000, 100 * failures)))
                continue
            }
            guard let current = channels[name] else { return }
            guard let newest = events.last?.seq else {
                // Pruned before anyone here read them: nothing left to deliver up to `wanted`.
                channels[name]?.lastDelivered = current.wanted
                continue
            }
            let subscribers = Array(current.subscribers.values)
            for event in events {
                let frame = event.frame
                for subscriber in subscribers { subscriber.deliver(seq: event.seq, frame: frame) }
            }
            if !subscribers.isEmpty { activity.add(events.count, to: RealtimeActivityKey.delivered) }
            channels[name]?.lastDelivered = newest
            channels[name]?.wanted = max(current.wanted, newest)
        }
    }
}
