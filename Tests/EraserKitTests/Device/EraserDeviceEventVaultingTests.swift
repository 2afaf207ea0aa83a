import Foundation
import Synchronization
import Testing

@testable import EraserKit

/// An event goes into the Vault before it leaves its calendar: a failure between the two steps
/// leaves it in the calendar, and the next `apply` finishes the job with the copy it made.
@Suite struct EraserDeviceEventVaultingTests {
    /// The planted 2023 event's id and its result key.
    private func plantedEvent(_ fixture: DeviceFixture) throws -> (id: EventID, key: String) {
        let result = try #require(try fixture.device.review().results().first { $0.kind == .calendarEvent })
        guard case .event(let id) = result.item else { throw CocoaError(.featureUnsupported) }
        return (id, result.item.key)
    }

    private func calendarBytes(_ fixture: DeviceFixture) throws -> [UInt8] { Array(try Data(contentsOf: fixture.calendarFile)) }

    @Test func theVaultHoldsTheEventsBytesBeforeItLeavesTheCalendar() async throws {
        let fixture = try DeviceFixture()
        _ = try await fixture.scan()
        let (id, key) = try plantedEvent(fixture)
        let store = try ICSCalendarStore(location: fixture.calendarFile, floatingTimeZone: fixture.zone)
        let expected = try store.original(id).original
        let calendar = WatchedCalendar(base: store, vault: fixture.device.vault, failRemoval: false)
        try fixture.device.decide(key, .vault)

        let report = try fixture.device.apply(now: Date(), library: try fixture.library.open(), calendar: calendar)
        #expect(calendar.vaultedAtRemoval == [[expected]])
        #expect(report.entries.count == 1)
        #expect(try store.event(id) == nil)
        #expect(try fixture.device.vault.contents(try #require(report.entries.first).vaultItemID) == expected)
    }

    @Test(arguments: [ReviewDecision.vault, .delete])
    func aFailureBetweenCopyAndRemovalLeavesTheEventInTheCalendar(decision: ReviewDecision) async throws {
        let fixture = try DeviceFixture()
        _ = try await fixture.scan()
        let before = try calendarBytes(fixture)
        let (id, key) = try plantedEvent(fixture)
        let store = try ICSCalendarStore(location: fixture.calendarFile, floatingTimeZone: fixture.zone)
        let expected = try store.original(id).original
        try fixture.device.decide(key, decision)

        let failing = WatchedCalendar(base: store, vault: fixture.device.vault, failRemoval: true)
        #expect(throws: WatchedCalendar.injected(id)) {
            try fixture.device.apply(now: Date(), library: try fixture.library.open(), calendar: failing)
        }
        #expect(try calendarBytes(fixture) == before)
        #expect(try store.event(id)?.title == "Anniversary dinner")
        let copies = try fixture.device.vault.list()
        #expect(copies.count == 1)
        #expect(try fixture.device.vault.contents(try #require(copies.first).id) == expected)
        #expect(try fixture.device.review().pendingDecisions().map(\.item.key) == [key])
        #expect(try fixture.device.vault.coolingOff().isEmpty)

        let report = try fixture.device.apply()
        #expect(report.entries.map(\.vaultItemID) == copies.map(\.id))
        #expect(try fixture.device.vault.list().map(\.id) == copies.map(\.id))
        #expect(try store.event(id) == nil)
        #expect(try fixture.device.apply().entries.isEmpty)
        if decision == .delete {
            #expect(try fixture.device.vault.coolingOff().compactMap(\.itemID) == copies.map(\.id))
            _ = try fixture.device.vault.restoreFromCoolingOff(copies[0].id)
        }
        try fixture.device.restore(copies[0].id)
        #expect(try calendarBytes(fixture) == before)
    }

    @Test func anEventEditedAfterAFailedApplyIsVaultedAsItIsNow() async throws {
        let fixture = try DeviceFixture()
        _ = try await fixture.scan()
        let (id, key) = try plantedEvent(fixture)
        let store = try ICSCalendarStore(location: fixture.calendarFile, floatingTimeZone: fixture.zone)
        try fixture.device.decide(key, .vault)
        let failing = WatchedCalendar(base: store, vault: fixture.device.vault, failRemoval: true)
        #expect(throws: WatchedCalendar.injected(id)) {
            try fixture.device.apply(now: Date(), library: try fixture.library.open(), calendar: failing)
        }
        let stale = try #require(try fixture.device.vault.list().first)
        let edited = Array(String(decoding: try calendarBytes(fixture), as: UTF8.self)
            .replacingOccurrences(of: "SUMMARY:Anniversary dinner", with: "SUMMARY:Anniversary dinner (moved)").utf8)
        try Data(edited).write(to: fixture.calendarFile)
        let current = try store.original(id).original

        let report = try fixture.device.apply()
        let fresh = try #require(report.entries.first).vaultItemID
        #expect(fresh != stale.id)
        #expect(Set(try fixture.device.vault.list().map(\.id)) == [stale.id, fresh])
        #expect(try fixture.device.vault.contents(fresh) == current)
        #expect(try store.event(id) == nil)
        try fixture.device.restore(fresh)
        #expect(try calendarBytes(fixture) == edited)
    }
}

/// A calendar over an `ICSCalendarStore` that notes, each time it is asked to remove an event,
/// which bytes the Vault holds for that event at that moment, and on cue fails the removal
/// (the failure injected between the copy and the removal).
final class WatchedCalendar: CalendarStore {
    private let base: ICSCalendarStore
    private let vault: Vault
    private let failRemoval: Bool
    private let log = Mutex<[[[UInt8]]]>([])

    /// The error the removal fails with.
    static func injected(_ id: EventID) -> EraserKitError {
        .calendar(.fileSystem(path: id.rawValue, reason: "injected failure"))
    }

    init(base: ICSCalendarStore, vault: Vault, failRemoval: Bool) {
        self.base = base
        self.vault = vault
        self.failRemoval = failRemoval
    }

    /// For each removal asked for, the contents of the Vault's items for that event then.
    var vaultedAtRemoval: [[[UInt8]]] { log.withLock { $0 } }

    func occurrences(in range: DateInterval) throws(EraserKitError) -> [EventOccurrence] { try base.occurrences(in: range) }
    func eventCount() throws(EraserKitError) -> Int { try base.eventCount() }
    func events(offset: Int, limit: Int) throws(EraserKitError) -> [CalendarEvent] { try base.events(offset: offset, limit: limit) }
    func event(_ id: EventID) throws(EraserKitError) -> CalendarEvent? { try base.event(id) }
    func original(_ id: EventID) throws(EraserKitError) -> RemovedEvent { try base.original(id) }
    func restore(_ removed: RemovedEvent) throws(EraserKitError) -> EventID { try base.restore(removed) }

    func remove(_ id: EventID, expecting expected: [UInt8]?) throws(EraserKitError) -> RemovedEvent {
        var held: [[UInt8]] = []
        for item in try vault.items(originalID: id.rawValue) { held.append(try vault.contents(item.id)) }
        log.withLock { $0.append(held) }
        if failRemoval { throw Self.injected(id) }
        return try base.remove(id, expecting: expected)
    }
}
