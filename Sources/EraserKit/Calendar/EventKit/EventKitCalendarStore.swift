#if canImport(EventKit)
// Written for iOS/macOS and NOT compiled or run on the Linux machines this project is built on
// (there is no EventKit there): the app's `CalendarStore`, in place of `ICSCalendarStore`.
import EventKit
import Foundation

/// The Apple `CalendarStore`: the user's calendars through EventKit.
///
/// **Blocking.** EventKit's reads and its `save`/`remove`/`commit` are synchronous, so this store
/// needs no bridging; a fetch over years of calendars can still take a while, so callers keep it
/// off the main thread, as for `PhotoKitLibrary`. Every call holds one lock for its whole work:
/// EventKit objects are never used by two threads at once.
///
/// **Access.** `init` throws `.accessDenied` unless the user gave full access to events (iOS 17's
/// `.fullAccess`; write-only access cannot read). Asking (`requestFullAccessToEvents`) is the UI's
/// job.
///
/// **Ids.** An `EventID` is the event's `eventIdentifier`: unique on the device, shared by every
/// occurrence of a series, and found again in one call (`event(withIdentifier:)`). Not
/// `calendarItemExternalIdentifier` (the iCalendar `UID`): it can be missing for a local event and
/// repeated across calendars (an invitation in two accounts), and can only be looked up as a list.
/// The `UID` is still written into the VEVENT. An occurrence EventKit reports as detached (edited
/// on its own: a VEVENT with `RECURRENCE-ID`) has the `instanceID`
/// `<eventIdentifier>#<its original start, UTC, 20240105T090000Z>`. EventKit changes an event's
/// identifier when it moves to another calendar; a restored event has a new one (see `restore`).
///
/// **Ranges.** `occurrences(in:)` uses `predicateForEvents(withStart:end:calendars:)`, which
/// expands recurrences itself but silently cuts a range to its first four years: ranges are asked
/// in chunks of `chunkLength` (three years) and an occurrence seen by two chunks is kept once.
/// Cancelled events have no occurrences (as in `ICSCalendarStore`). EventKit has no query for
/// "every event", so `eventCount()` and `events(offset:limit:)` list the distinct events with an
/// occurrence in `listingSpan` (by default 25 years back to 10 years ahead), sorted by id, and
/// keep that listing until EventKit posts `EKEventStoreChanged` or this store changes something.
///
/// **VEVENTs.** EventKit gives no iCalendar text, so `original(_:)` writes the series with
/// `ICSWriter` (`EventKitCalendarStore+VEVENT.swift`) and `restore` reads it back with
/// `ICSParser` (`EventKitCalendarStore+Removal.swift`, which also lists what EventKit cannot put
/// back).
public final class EventKitCalendarStore: CalendarStore, @unchecked Sendable {
    // @unchecked Sendable: `store` and every EventKit object are only used under `lock`;
    // `cachedListing` too; the other stored properties are constants.

    /// The longest range asked of EventKit at once (its limit is four years).
    public static let chunkLength: TimeInterval = 3 * 365 * 86_400

    public let store: EKEventStore
    /// Where `eventCount()` and `events(offset:limit:)` look for events.
    public let listingSpan: DateInterval
    /// The zone of all-day and floating events.
    public let floatingTimeZone: TimeZone
    let lock = NSRecursiveLock()
    private var cachedListing: [String]?
    private var observation: (any NSObjectProtocol)?

    /// A store over the user's event calendars.
    /// - Throws: `.calendar(.accessDenied)` without full access to events.
    public init(store: EKEventStore = EKEventStore(), listingSpan: DateInterval? = nil,
                floatingTimeZone: TimeZone = .current) throws(EraserKitError) {
        guard EKEventStore.authorizationStatus(for: .event) == .fullAccess else {
            throw .calendar(.accessDenied("Ex-Eraser needs full access to Calendars (Settings › Privacy › Calendars)"))
        }
        let now = Date()
        self.store = store
        self.listingSpan = listingSpan ?? DateInterval(start: now.addingTimeInterval(-25 * 365.25 * 86_400),
                                                       end: now.addingTimeInterval(10 * 365.25 * 86_400))
        self.floatingTimeZone = floatingTimeZone
        observation = NotificationCenter.default.addObserver(forName: .EKEventStoreChanged, object: store, queue: nil) { [weak self] _ in
            self?.invalidate()
        }
    }

    deinit {
        if let observation { NotificationCenter.default.removeObserver(observation) }
    }

    // MARK: - Reading

    public func occurrences(in range: DateInterval) throws(EraserKitError) -> [EventOccurrence] {
        locked {
            var seen = Set<String>()
            var result: [EventOccurrence] = []
            for event in fetch(range) where event.status != .canceled {
                guard let identifier = event.eventIdentifier else { continue }
                let original = event.occurrenceDate ?? event.startDate ?? Date(timeIntervalSince1970: 0)
                guard seen.insert("\(identifier)|\(original.timeIntervalSince1970)").inserted else { continue }
                result.append(EventOccurrence(
                    eventID: EventID(rawValue: identifier), start: event.startDate, end: event.endDate,
                    instanceID: event.isDetached ? Self.instanceID(identifier, original) : nil))
            }
            return result.sorted {
                ($0.start, $0.eventID, $0.instanceID?.rawValue ?? "") < ($1.start, $1.eventID, $1.instanceID?.rawValue ?? "")
            }
        }
    }

    public func eventCount() throws(EraserKitError) -> Int {
        locked { listing().count }
    }

    public func events(offset: Int, limit: Int) throws(EraserKitError) -> [CalendarEvent] {
        locked {
            let all = listing()
            guard offset >= 0, limit > 0, offset < all.count else { return [] }
            // An event deleted since the listing was made is left out of its page.
            return all[offset..<min(all.count, offset + limit)].compactMap { identifier in
                store.event(withIdentifier: identifier).map { calendarEvent($0, id: EventID(rawValue: identifier)) }
            }
        }
    }

    public func event(_ id: EventID) throws(EraserKitError) -> CalendarEvent? {
        locked {
            if let instance = Self.instance(id) {
                return detachedOccurrence(of: instance.series, at: instance.original).map { calendarEvent($0, id: id) }
            }
            return store.event(withIdentifier: id.rawValue).map { calendarEvent($0, id: id) }
        }
    }

    // MARK: - Fetching

    /// Every event occurrence EventKit has in `range`, in chunks of `chunkLength`.
    func fetch(_ range: DateInterval) -> [EKEvent] {
        var result: [EKEvent] = []
        var start = range.start
        repeat {
            let end = min(range.end, start.addingTimeInterval(Self.chunkLength))
            result += store.events(matching: store.predicateForEvents(withStart: start, end: end, calendars: nil))
            start = end
        } while start < range.end
        return result
    }

    /// The sorted identifiers of the events with an occurrence in `listingSpan`.
    private func listing() -> [String] {
        if let cachedListing { return cachedListing }
        let identifiers = Set(fetch(listingSpan).compactMap(\.eventIdentifier)).sorted()
        cachedListing = identifiers
        return identifiers
    }

    /// Forgets the listing (EventKit reported a change, or this store made one).
    func invalidate() {
        lock.lock()
        cachedListing = nil
        lock.unlock()
    }

    /// The detached occurrence of the series `identifier` whose original start is `original`:
    /// looked for within a month of it first (an edited occurrence is rarely moved far), then
    /// over the whole series.
    func detachedOccurrence(of identifier: String, at original: Date) -> EKEvent? {
        func matches(_ event: EKEvent) -> Bool {
            event.isDetached && event.eventIdentifier == identifier && event.occurrenceDate == original
        }
        let month: TimeInterval = 31 * 86_400
        if let near = fetch(DateInterval(start: original.addingTimeInterval(-month), end: original.addingTimeInterval(month)))
            .first(where: matches) {
            return near
        }
        guard let series = store.event(withIdentifier: identifier) else { return nil }
        return detachedOccurrences(of: series).first(where: matches)
    }

    /// The series' detached occurrences, by original start: looked for from the series' first
    /// start to its recurrence end (or the end of `listingSpan`).
    func detachedOccurrences(of series: EKEvent) -> [EKEvent] {
        guard series.hasRecurrenceRules, let identifier = series.eventIdentifier, let first = series.startDate else { return [] }
        let ruleEnd = series.recurrenceRules?.compactMap { $0.recurrenceEnd?.endDate }.max()
        let end = max(first, min(ruleEnd.map { $0.addingTimeInterval(86_400) } ?? listingSpan.end, listingSpan.end))
        var byOriginal: [Date: EKEvent] = [:]
        for event in fetch(DateInterval(start: first, end: end)) where event.isDetached && event.eventIdentifier == identifier {
            if let original = event.occurrenceDate { byOriginal[original] = event }
        }
        return byOriginal.keys.sorted().compactMap { byOriginal[$0] }
    }

    // MARK: - Helpers

    /// Runs `body` holding the store's lock.
    func locked<T>(_ body: () throws(EraserKitError) -> T) throws(EraserKitError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// `<eventIdentifier>#<original start as UTC DATE-TIME>`.
    static func instanceID(_ identifier: String, _ original: Date) -> EventID {
        EventID(rawValue: identifier + "#" + ICSWriter.value(of: ICSWriter.Time(date: original, form: .utc)).value)
    }

    /// The series identifier and original start an instance id names, or `nil` for a series id.
    static func instance(_ id: EventID) -> (series: String, original: Date)? {
        guard let hash = id.rawValue.lastIndex(of: "#"),
              let raw = ICSRawTime.parse(String(id.rawValue[id.rawValue.index(after: hash)...])), raw.form == .utc else { return nil }
        return (String(id.rawValue[..<hash]), Date(timeIntervalSince1970: TimeInterval(raw.wall.wallSeconds)))
    }
}
#endif
