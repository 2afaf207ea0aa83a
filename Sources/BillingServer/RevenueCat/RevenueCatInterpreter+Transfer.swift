import KindredServerCore
import SQLKit

extension RevenueCatInterpreter {
    /// Most transfers one entry follows (A → B → C …), a bound against cycles.
    static let maxTransferHops = 8

    /// `TRANSFER`: every RevenueCat lineage of the `transferred_from` users that still grants
    /// access ends at the event time there and continues, with the same expiration, for the
    /// first `transferred_to` user. The transfer is also remembered per source
    /// (`kindred_billing_transfers`), so a purchase or renewal of the source that predates it
    /// but is applied after it moves too (`followTransfers`).
    func transfer(_ event: RevenueCatEvent, now: Int64, on sql: any SQLDatabase) async throws -> BillingEffect {
        let (target, targetApp) = try await resolve(event.transferredTo ?? [], on: sql)
        var effect = BillingEffect(userID: target, outcome: "applied: transfer")
        effect.touched[target] = targetApp
        effect.links = links(event.transferredTo ?? [], to: target)
        let eventSeconds = event.eventTimestampMs / 1000
        var sources: [String] = []
        for id in (event.transferredFrom ?? []).prefix(20) where !id.isEmpty && id.utf8.count <= 256 {
            guard let resolved = try? await resolve([id], on: sql) else {
                // Not a user (yet): remembered by the provider's id.
                effect.transfers.append(.init(eventID: event.id, fromID: id, toUserID: target, eventTime: event.eventTimestampMs))
                continue
            }
            guard resolved.0 != target, !sources.contains(resolved.0) else { continue }
            sources.append(resolved.0)
            effect.touched[resolved.0] = resolved.1
            effect.transfers.append(.init(eventID: event.id, fromID: resolved.0, toUserID: target, eventTime: event.eventTimestampMs))
        }
        for source in sources {
            let snapshot = SubscriptionSnapshot.compute(
                plans: try await BillingLedger.current(of: source, on: sql), now: eventSeconds, sandboxGrantsAccess: true
            )
            for lineage in snapshot.lineages where lineage.key.provider == .revenuecat && lineage.isActive {
                effect.appends += moved(lineage.latest, from: source, to: target, app: targetApp, transferID: event.id, at: event.eventTimestampMs, now: now)
            }
        }
        return effect
    }

    /// Moves `entry` (a purchase or renewal of its user, about to be appended) along the
    /// transfers remembered from its user that happened at or after it: for the first such
    /// transfer, when the lineage still granted access then, the source's lineage ends at the
    /// transfer and continues for the target with the expiration it had at the transfer — and
    /// so on for the target's own later transfers. Appends that change nothing are no-ops.
    /// - Parameter fromIDs: the ids the entry's event names (the user and its aliases).
    func followTransfers(
        of entry: PlanEntry, fromIDs: [String], now: Int64, into effect: inout BillingEffect, on sql: any SQLDatabase
    ) async throws {
        var current = entry
        var ids = fromIDs
        var minimumTime = entry.eventTime
        for _ in 0..<Self.maxTransferHops {
            guard let transfer = try await BillingLedger.firstTransfer(from: ids, atOrAfter: minimumTime, on: sql),
                transfer.toUserID != current.userID,
                let targetApp = try await BillingLedger.app(ofUser: transfer.toUserID, on: sql)
            else { return }
            // The lineage as it stood at the transfer: its latest entry then, this one included.
            let before = try await BillingLedger.latestBefore(
                transfer, userID: current.userID, lineage: current.lineageKey, on: sql
            )
            let standing = BillingLedger.LineageHeads.latest(of: [current] + (before.map { [$0] } ?? [])) ?? current
            guard standing.expiration > transfer.eventTime / 1000, standing.kind != .revocation, standing.kind != .expiration
            else { return }
            try await BillingLedger.lock([transfer.toUserID], on: sql)
            effect.touched[transfer.toUserID] = targetApp
            effect.locked.insert(transfer.toUserID)
            let pair = moved(
                standing, from: current.userID, to: transfer.toUserID, app: targetApp, transferID: transfer.eventID,
                at: transfer.eventTime, now: now
            )
            effect.appends += pair
            current = pair[1]
            ids = [transfer.toUserID]
            minimumTime = transfer.eventTime + 1
        }
    }

    /// The `transfer_out` of `latest`'s lineage for `source` and its `transfer_in` for `target`.
    func moved(
        _ latest: PlanEntry, from source: String, to target: String, app: AppID, transferID: String, at time: Int64, now: Int64
    ) -> [PlanEntry] {
        [
            PlanEntry(
                id: newID(), userID: source, app: latest.app, planType: latest.planType, productID: latest.productID,
                platform: latest.platform, provider: .revenuecat, lineage: latest.lineage, kind: .transferOut,
                expiration: time / 1000, eventTime: time, eventID: transferID, sandbox: latest.sandbox, createdAt: now
            ),
            PlanEntry(
                id: newID(), userID: target, app: app, planType: latest.planType, productID: latest.productID,
                platform: latest.platform, provider: .revenuecat, lineage: latest.lineage, kind: .transferIn,
                expiration: latest.expiration, eventTime: time, eventID: transferID, sandbox: latest.sandbox, createdAt: now
            ),
        ]
    }
}
