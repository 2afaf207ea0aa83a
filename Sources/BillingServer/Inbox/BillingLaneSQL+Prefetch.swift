import KindredServerCore
import KindredStore
import SQLKit

extension BillingLaneSQL {
    /// Reads, in four statements, which of the lane's events were recorded already, and what
    /// they will ask about the users they name:
    /// locks those users (in id order, as `BillingLedger.lock` does) and remembers their apps
    /// and the ids that are no user; remembers all of the locked users' lineage heads; and
    /// remembers which of the ids are sources of remembered transfers. The events then read
    /// these from the memo instead of one statement each.
    /// - Parameters:
    ///   - ids: the user ids and provider ids the lane's events name.
    ///   - events: the lane's events (provider and event id): those recorded already are remembered.
    func prefetch(_ ids: [String], events: [(provider: BillingProvider, eventID: String)] = []) async throws {
        // One indexed read per provider (the records' key is provider, event id).
        for (provider, ofProvider) in Dictionary(grouping: events, by: \.provider) {
            let eventIDs = try BillingQueries.idSet(ofProvider.map(\.eventID), dialect: dialect)
            let rows = try await base.all(BillingQueries.recordedEvents.binding(provider.rawValue, eventIDs))
            memo.alreadyRecorded(try rows.map { "\(provider.rawValue):\(try $0.decode(column: "event_id", as: String.self))" })
        }
        let ids = Array(Set(ids.filter { !$0.isEmpty })).sorted()
        guard !ids.isEmpty else { return }
        let set = try BillingQueries.idSet(ids, dialect: dialect)
        let rows = try await base.all(BillingQueries.lockUsers.binding(set))
        var users: [String] = []
        for row in rows {
            let id = try row.decode(column: "id", as: String.self)
            memo.locked(id, app: AppID(rawValue: try row.decode(column: "app", as: String.self)))
            users.append(id)
        }
        memo.absent(Set(ids).subtracting(users))
        if !users.isEmpty {
            let heads = try await BillingLedger.current(of: users, on: base)
            memo.rememberAllHeads(of: users, entries: heads.values.flatMap { $0 })
        }
        let sources = try await base.all(BillingQueries.transferSources.binding(set))
            .map { try $0.decode(column: "from_id", as: String.self) }
        memo.checkedTransfers(of: ids, sources: sources)
    }
}
