import KindredServerCore
import Logging
import NIOCore
import SQLKit
import Synchronization

/// The connection of one inbox lane's transaction, carrying what the lane has already read about
/// the users it locked, so a lane of events about few users does not read the same rows again
/// for every event.
///
/// It forwards every statement to the transaction. The lane's own writes of event records,
/// plan entries and lineage heads are deferred (`BillingLaneMemo.record`, `.deferInsert`) and
/// written together, in a few set statements, before the next statement of any kind runs on it
/// (`flush()`), so no read ever misses them. The ledger's functions consult `memo` when
/// they are given this type, and only then: what it holds is true exactly for the lifetime of the
/// one transaction it wraps, because every entry is about a user whose `kindred_users` row that
/// transaction has locked (`BillingLedger.lock`), and every billing write of a user happens
/// under that lock. A lane has no savepoints, so nothing it remembers can be rolled back while
/// the transaction goes on: a failure ends the whole transaction.
struct BillingLaneSQL: SQLDatabase {
    /// The lane's transaction.
    let base: any SQLDatabase
    /// What the lane knows.
    let memo = BillingLaneMemo()

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    /// Runs a statement after writing what the lane deferred, so every statement sees them.
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await flush()
        try await base.execute(sql: query, onRow)
    }

    /// Writes the deferred event records, plan entries and heads (a few set statements).
    func flush() async throws {
        guard let pending = memo.takePending() else { return }
        try await BillingLaneWrites.write(pending, on: base)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }

    /// The memo of `sql` when it is a lane's connection.
    static func memo(of sql: any SQLDatabase) -> BillingLaneMemo? {
        (sql as? BillingLaneSQL)?.memo
    }
}

/// The users a lane's transaction has locked (with their apps) and the lineage heads it has read
/// or written for them.
final class BillingLaneMemo: Sendable {
    private struct HeadsKey: Hashable {
        var userID: String
        var lineage: LineageKey
    }

    /// An event record to write.
    struct EventRecord: Sendable, Equatable {
        /// The provider.
        var provider: BillingProvider
        /// The provider's event id.
        var eventID: String
        /// The event type (at most 100 characters).
        var type: String
        /// The user the event is recorded against.
        var userID: String?
        /// What applying it did (`applied`, `ignored: …`).
        var outcome: String
        /// The provider's event time (ms since 1970).
        var eventTime: Int64
        /// When it was applied (ms since 1970).
        var appliedAt: Int64
    }

    /// A lineage head row to write (the heads of one sandbox flag).
    struct HeadRow: Sendable, Equatable {
        /// The user.
        var userID: String
        /// The lineage's provider.
        var provider: BillingProvider
        /// The lineage (subscription or original transaction id).
        var lineage: String
        /// Which sandbox flag the row is for.
        var sandbox: Bool
        /// The lineage's latest entry with that flag.
        var planID: String
        /// Its latest trial entry with that flag, if any.
        var trialPlanID: String?
    }

    /// Writes the lane deferred, in the order they must be written.
    struct Pending: Sendable {
        /// Event records, first.
        var records: [EventRecord]
        /// Plan entries, next.
        var plans: [PlanEntry]
        /// Lineage head rows as they stand after those entries, last.
        var heads: [HeadRow]
    }

    private struct DirtyHead: Hashable {
        var key: HeadsKey
        var sandbox: Bool
    }

    private struct State {
        var locked: [String: AppID?] = [:]
        /// Ids the lane looked up as users and found none (`BillingLedger.prefetch`).
        var absent: Set<String> = []
        var heads: [HeadsKey: BillingLedger.LineageHeads] = [:]
        /// Users all of whose lineages' heads are in `heads` (a lineage missing there has none).
        var allHeadsKnown: Set<String> = []
        /// Ids the lane checked for remembered transfers, and those that have some.
        var transferChecked: Set<String> = []
        var transferSources: Set<String> = []
        /// Events recorded (in the database when the lane began, or by the lane), as `provider:id`.
        var recorded: Set<String> = []
        var pendingRecords: [EventRecord] = []
        var pendingPlans: [PlanEntry] = []
        var dirtyHeads: [DirtyHead] = []
    }

    private let state = Mutex(State())

    /// Whether the lane's transaction holds the user's lock.
    func isLocked(_ userID: String) -> Bool {
        state.withLock { $0.locked[userID] != nil }
    }

    /// The app of a user the lane has locked, when it was read.
    func lockedApp(_ userID: String) -> AppID? {
        state.withLock { $0.locked[userID] ?? nil }
    }

    /// Whether the lane looked `id` up as a user and found none.
    func isAbsent(_ id: String) -> Bool {
        state.withLock { $0.absent.contains(id) }
    }

    /// Records ids the lane looked up as users and found none.
    func absent(_ ids: some Sequence<String>) {
        state.withLock { $0.absent.formUnion(ids) }
    }

    /// Records that the lane's transaction locked the user (and its app, when read).
    func locked(_ userID: String, app: AppID?) {
        state.withLock { state in
            if let app { state.locked[userID] = .some(app) } else if state.locked[userID] == nil { state.locked[userID] = .some(nil) }
        }
    }

    /// The heads of a locked user's lineage, when the lane has read or written them (empty for a
    /// lineage of a user all of whose heads the lane loaded, when it has none).
    func heads(userID: String, lineage: LineageKey) -> BillingLedger.LineageHeads? {
        state.withLock { state in
            if let known = state.heads[HeadsKey(userID: userID, lineage: lineage)] { return known }
            return state.allHeadsKnown.contains(userID) ? BillingLedger.LineageHeads(entries: []) : nil
        }
    }

    /// Remembers every lineage's heads of locked users, read in the lane's transaction: `entries`
    /// are all of those users' head entries (`BillingLedger.current(of:)`).
    func rememberAllHeads(of userIDs: [String], entries: [PlanEntry]) {
        state.withLock { state in
            let lockedUsers = userIDs.filter { state.locked[$0] != nil }
            let grouped = Dictionary(grouping: entries) { HeadsKey(userID: $0.userID, lineage: $0.lineageKey) }
            for (key, entries) in grouped where lockedUsers.contains(key.userID) {
                state.heads[key] = BillingLedger.LineageHeads(entries: entries)
            }
            state.allHeadsKnown.formUnion(lockedUsers)
        }
    }

    /// Records that these events were already recorded when the lane began.
    func alreadyRecorded(_ keys: some Sequence<String>) {
        state.withLock { $0.recorded.formUnion(keys) }
    }

    /// Defers writing an event's record, unless the event is recorded already.
    /// - Returns: false when it is (a duplicate: nothing is to be written for it).
    func record(_ record: EventRecord) -> Bool {
        state.withLock { state in
            guard state.recorded.insert("\(record.provider.rawValue):\(record.eventID)").inserted else { return false }
            state.pendingRecords.append(record)
            return true
        }
    }

    /// Defers inserting `entry` of a locked user, whose lineage heads become `heads`.
    /// - Returns: false for a user the lane has not locked (the caller writes it at once).
    func deferInsert(_ entry: PlanEntry, heads: BillingLedger.LineageHeads) -> Bool {
        state.withLock { state in
            guard state.locked[entry.userID] != nil else { return false }
            let key = HeadsKey(userID: entry.userID, lineage: entry.lineageKey)
            state.heads[key] = heads
            state.pendingPlans.append(entry)
            let dirty = DirtyHead(key: key, sandbox: entry.sandbox)
            if !state.dirtyHeads.contains(dirty) { state.dirtyHeads.append(dirty) }
            return true
        }
    }

    /// Takes what is deferred (nil when nothing is), leaving nothing deferred.
    func takePending() -> Pending? {
        state.withLock { state in
            guard !state.pendingRecords.isEmpty || !state.pendingPlans.isEmpty else { return nil }
            let heads = state.dirtyHeads.compactMap { dirty -> HeadRow? in
                guard let heads = state.heads[dirty.key], let head = heads.head(sandbox: dirty.sandbox) else { return nil }
                return HeadRow(
                    userID: dirty.key.userID, provider: dirty.key.lineage.provider, lineage: dirty.key.lineage.lineage,
                    sandbox: dirty.sandbox, planID: head.id, trialPlanID: heads.trialHead(sandbox: dirty.sandbox)?.id
                )
            }
            let pending = Pending(records: state.pendingRecords, plans: state.pendingPlans, heads: heads)
            state.pendingRecords = []
            state.pendingPlans = []
            state.dirtyHeads = []
            return pending
        }
    }

    /// Whether the lane knows that none of `ids` is the source of a remembered transfer.
    func knowsNoTransfer(from ids: [String]) -> Bool {
        state.withLock { state in
            ids.allSatisfy { state.transferChecked.contains($0) && !state.transferSources.contains($0) }
        }
    }

    /// Records which of the checked ids are sources of remembered transfers.
    func checkedTransfers(of ids: some Sequence<String>, sources: some Sequence<String>) {
        state.withLock { state in
            state.transferChecked.formUnion(ids)
            state.transferSources.formUnion(sources)
        }
    }

    /// Remembers a locked user's lineage heads as they now stand in the transaction (ignored for
    /// a user the lane has not locked).
    func remember(_ heads: BillingLedger.LineageHeads, userID: String, lineage: LineageKey) {
        state.withLock { state in
            guard state.locked[userID] != nil else { return }
            state.heads[HeadsKey(userID: userID, lineage: lineage)] = heads
        }
    }
}
