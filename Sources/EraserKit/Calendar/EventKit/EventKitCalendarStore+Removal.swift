#if canImport(EventKit)
// Written for iOS/macOS and NOT compiled or run on the Linux machines this project is built on
// (there is no EventKit there): `original`, `remove` and `restore` of `EventKitCalendarStore`.
import EventKit
import Foundation

/// Removal and restore through the VEVENT text `ICSWriter` writes.
///
/// `original(_:)` and `remove(_:expecting:)` give the same bytes for an unchanged event (the
/// VEVENT depends only on the event, its `DTSTAMP` being its last modification), so the check
/// against `expected` holds: any edit — in this app, Calendar or a synced device — changes
/// `LAST-MODIFIED` or a field, and the removal is refused with `CalendarError.changed`.
///
/// **Where EventKit cannot keep the protocol's promises.** `restore` cannot put back the bytes it
/// was given, only an event made from them:
/// - The event is new: EventKit gives it **a new `eventIdentifier`** (and `UID`, creation and
///   modification dates), so the removed `EventID` names nothing afterwards. `restore` returns
///   the new id (the protocol's contract: the id the event has now); `EraserDevice.restore`
///   reports it and moves the scan's result to it. A second `original(_:)` of the restored event
///   is therefore not byte-identical to the first: the Vault's copy stays the exact original.
/// - EventKit lets an app set neither attendees nor organizer nor `STATUS`: a restored event has
///   none of them (an invitation comes back as the user's own event). `BYHOUR`, `BYMINUTE`,
///   `BYSECOND` and `WKST` are not settable either; `BYWEEKNO` is refused by the reader
///   (`.unsupportedRule`). Occurrences deleted from a series are not exposed by EventKit, so they
///   are not written and come back with it. Alarms, availability and attachments are not kept.
/// - Detached (edited) occurrences are written as VEVENTs with `RECURRENCE-ID` and restored with
///   their title, place, notes and times; if one cannot be, the new series is taken out again
///   and the restore fails, leaving the calendar as it was.
extension EventKitCalendarStore {
    /// The series' VEVENTs as `remove` would take them out now, without changing anything.
    /// - Throws: `.notFound` for an unknown id.
    public func original(_ id: EventID) throws(EraserKitError) -> RemovedEvent {
        try locked { () throws(EraserKitError) in
            let master = try series(id)
            return RemovedEvent(event: calendarEvent(master, id: Self.seriesID(id)), original: veventBytes(of: master))
        }
    }

    /// Deletes the whole series (`remove(_:span: .futureEvents)` on its first occurrence) and
    /// returns its VEVENTs.
    /// - Throws: `.notFound`; `.changed` when `expected` is given and the series' VEVENTs are not
    ///   those bytes any more (nothing is removed); `.accessDenied` when EventKit refuses (a
    ///   read-only calendar).
    public func remove(_ id: EventID, expecting expected: [UInt8]?) throws(EraserKitError) -> RemovedEvent {
        try locked { () throws(EraserKitError) in
            let master = try series(id)
            let removed = RemovedEvent(event: calendarEvent(master, id: Self.seriesID(id)), original: veventBytes(of: master))
            if let expected, expected != removed.original { throw .calendar(.changed(id)) }
            defer { invalidate() }
            do {
                try store.remove(master, span: .futureEvents, commit: true)
            } catch {
                throw .calendar(.accessDenied("EventKit refused to delete \(id): \(error.localizedDescription)"))
            }
            return removed
        }
    }

    /// Makes the event again from its VEVENTs, in the calendar it came from (by
    /// `X-EXERASER-CALENDAR`, else by title).
    /// - Returns: the new event's id (see the extension's notes: it is not the removed one).
    /// - Throws: `.alreadyPresent` when the removed event is still in the calendar;
    ///   `.unknownCalendar` when no writable calendar has its identifier or title; `.malformed`
    ///   when `removed.original` is not a VEVENT; `.accessDenied` when EventKit refuses the save.
    @discardableResult
    public func restore(_ removed: RemovedEvent) throws(EraserKitError) -> EventID {
        try locked { () throws(EraserKitError) in
            let document = try ICSCalendarStore.lift { () throws(CalendarError) in
                try ICSParser.parse(ICSWriter.calendar([removed.original]), fileName: "\(removed.event.calendar).ics")
            }
            let reader = ICSEventReader(file: document.fileName, zones: TimeZoneResolver(document: document))
            let components = document.events
            guard let masterComponent = components.first(where: { $0.property("RECURRENCE-ID") == nil }) ?? components.first else {
                throw .calendar(.malformed(file: document.fileName, line: 1, reason: "no VEVENT to restore"))
            }
            if let old = masterComponent.property("X-EXERASER-EVENT-ID").map({ ICSText.unescape($0.value) }),
               store.event(withIdentifier: old) != nil {
                throw .calendar(.alreadyPresent(removed.event.id))
            }
            let calendar = try writableCalendar(masterComponent, title: removed.event.calendar)
            let master = try ICSCalendarStore.lift { () throws(CalendarError) in try reader.read(masterComponent) }
            let event = EKEvent(eventStore: store)
            event.calendar = calendar
            try apply(master, to: event)
            defer { invalidate() }
            do {
                try store.save(event, span: .futureEvents, commit: true)
            } catch {
                throw .calendar(.accessDenied("EventKit refused to add \(removed.event.title) back: \(error.localizedDescription)"))
            }
            guard let identifier = event.eventIdentifier else {
                throw .calendar(.fileSystem(path: calendar.title, reason: "EventKit saved the event but gave it no identifier"))
            }
            do throws(EraserKitError) {
                for component in components where component.property("RECURRENCE-ID") != nil {
                    let override = try ICSCalendarStore.lift { () throws(CalendarError) in try reader.read(component) }
                    guard let recurrenceID = override.recurrenceID,
                          let occurrence = detachedCandidate(of: identifier, at: instant(recurrenceID)) else {
                        throw .calendar(.malformed(file: document.fileName, line: component.line,
                                                   reason: "the series has no occurrence for this RECURRENCE-ID"))
                    }
                    try apply(override, to: occurrence, rules: false)
                    do {
                        try store.save(occurrence, span: .thisEvent, commit: true)
                    } catch {
                        throw .calendar(.accessDenied("EventKit refused to restore an occurrence: \(error.localizedDescription)"))
                    }
                }
            } catch {
                // All or nothing: the new series goes again.
                try? store.remove(event, span: .futureEvents, commit: true)
                throw error
            }
            return EventID(rawValue: identifier)
        }
    }

    // MARK: - Helpers

    /// The series `id` names (an instance id names its series), as its first occurrence.
    func series(_ id: EventID) throws(EraserKitError) -> EKEvent {
        guard let master = store.event(withIdentifier: Self.seriesID(id).rawValue) else { throw .calendar(.notFound(id)) }
        return master
    }

    /// The series id of `id` (itself, or an instance id's series).
    static func seriesID(_ id: EventID) -> EventID {
        instance(id).map { EventID(rawValue: $0.series) } ?? id
    }

    /// The calendar to restore into: the one whose identifier the VEVENT names, else the first
    /// writable event calendar with `title`.
    private func writableCalendar(_ component: ICSComponent, title: String) throws(EraserKitError) -> EKCalendar {
        if let identifier = component.property("X-EXERASER-CALENDAR").map({ ICSText.unescape($0.value) }),
           let calendar = store.calendar(withIdentifier: identifier), calendar.allowsContentModifications {
            return calendar
        }
        if let calendar = store.calendars(for: .event).first(where: { $0.title == title && $0.allowsContentModifications }) {
            return calendar
        }
        throw .calendar(.unknownCalendar(title))
    }

    /// The occurrence of the new series `identifier` at `original` (just saved, so not detached
    /// yet: looked for by its start, a day either side).
    private func detachedCandidate(of identifier: String, at original: Date) -> EKEvent? {
        fetch(DateInterval(start: original.addingTimeInterval(-86_400), end: original.addingTimeInterval(86_400)))
            .first { $0.eventIdentifier == identifier && ($0.occurrenceDate ?? $0.startDate) == original }
    }

    /// The instant of a VEVENT time (floating and all-day ones in `floatingTimeZone`).
    private func instant(_ time: ICSTime) -> Date {
        Date(timeIntervalSince1970: TimeInterval(time.instant(floating: SystemZone(timeZone: floatingTimeZone))))
    }

    /// Sets `event`'s title, place, notes, URL, times, zone and (for a master) rules from `read`.
    private func apply(_ read: ICSEvent, to event: EKEvent, rules: Bool = true) throws(EraserKitError) {
        let floating = SystemZone(timeZone: floatingTimeZone)
        let zone = read.start.concreteZone(floating: floating)
        let start = zone.instant(for: read.start.wall)
        let end = max(start, read.end.map { $0.instant(floating: floating) } ?? read.length.end(wall: read.start.wall, start: start, zone: zone))
        event.title = read.summary ?? ""
        event.location = read.location
        event.notes = read.description
        if let url = read.component.property("URL")?.value { event.url = URL(string: url) }
        event.isAllDay = read.start.isDate
        switch read.start.zone {
        case .utc: event.timeZone = TimeZone(identifier: "UTC")
        case .floating: event.timeZone = nil
        case .named(let named): event.timeZone = TimeZone(identifier: named.identifier)
        }
        event.startDate = Date(timeIntervalSince1970: TimeInterval(start))
        // EventKit ends an all-day event on its last day; iCalendar's DTEND is the day after.
        event.endDate = Date(timeIntervalSince1970: TimeInterval(read.start.isDate ? max(start, end - 1) : end))
        guard rules else { return }
        let recurrence = try ICSCalendarStore.lift { () throws(CalendarError) in try read.rules.get() }
        event.recurrenceRules = recurrence.isEmpty ? nil : recurrence.map { ekRule($0, floating: floating) }
    }

    /// A parsed `RRULE` as EventKit's rule (the parts EventKit has; see the extension's notes).
    private func ekRule(_ rule: RecurrenceRule, floating: any ICSZone) -> EKRecurrenceRule {
        let frequency: EKRecurrenceFrequency = switch rule.frequency {
        case .daily: .daily
        case .weekly: .weekly
        case .monthly: .monthly
        case .yearly: .yearly
        }
        var end: EKRecurrenceEnd?
        if let count = rule.count {
            end = EKRecurrenceEnd(occurrenceCount: count)
        } else if let until = rule.until {
            // A DATE is its whole day; a floating time is read in the floating zone.
            let seconds = until.form == .utc ? UTCZone().instant(for: until.wall)
                : floating.instant(for: until.wall) + (until.isDate ? 86_399 : 0)
            end = EKRecurrenceEnd(end: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        func numbers(_ list: [Int]) -> [NSNumber]? { list.isEmpty ? nil : list.map { NSNumber(value: $0) } }
        let days = rule.byDay.compactMap { entry -> EKRecurrenceDayOfWeek? in
            // `Weekday` counts from Monday (0); EventKit from Sunday (1).
            guard let weekday = EKWeekday(rawValue: (entry.weekday.rawValue + 1) % 7 + 1) else { return nil }
            return EKRecurrenceDayOfWeek(weekday, weekNumber: entry.ordinal ?? 0)
        }
        return EKRecurrenceRule(
            recurrenceWith: frequency, interval: rule.interval, daysOfTheWeek: days.isEmpty ? nil : days,
            daysOfTheMonth: numbers(rule.byMonthDay), monthsOfTheYear: numbers(rule.byMonth), weeksOfTheYear: nil,
            daysOfTheYear: numbers(rule.byYearDay), setPositions: numbers(rule.bySetPos), end: end)
    }
}
#endif
