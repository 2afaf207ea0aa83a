#if canImport(EventKit)
// Written for iOS/macOS and NOT compiled or run on the Linux machines this project is built on
// (there is no EventKit there): EKEvent → `CalendarEvent` and → VEVENT (`ICSWriter`).
import EventKit
import Foundation

/// What an `EKEvent` is as a `CalendarEvent` and as a VEVENT.
///
/// A VEVENT holds: `UID` (`calendarItemExternalIdentifier`, else `calendarItemIdentifier`),
/// `DTSTAMP` (the last modification, else the creation, else the start: a date of the event,
/// so the same event always gives the same bytes), `DTSTART`/`DTEND` (`VALUE=DATE` for an all-day
/// event, its `DTEND` the day after its last day; `TZID` for a zoned one; UTC for a UTC one;
/// floating without a zone), `RECURRENCE-ID` for a detached occurrence, `RRULE`, `SUMMARY`,
/// `LOCATION`, `DESCRIPTION`, `STATUS`, `URL`, `ORGANIZER` and `ATTENDEE`s (their `CN`, address,
/// `ROLE` and `PARTSTAT`), `CREATED`, `LAST-MODIFIED`, and two lines of our own:
/// `X-EXERASER-CALENDAR` (the calendar's `calendarIdentifier`, so `restore` finds it even after a
/// rename) and `X-EXERASER-EVENT-ID` (the `eventIdentifier`).
extension EventKitCalendarStore {
    /// The event as the protocol gives it (`id`: the series' or an instance's).
    func calendarEvent(_ event: EKEvent, id: EventID) -> CalendarEvent {
        CalendarEvent(
            id: id, calendar: event.calendar?.title ?? "", title: event.title ?? "", location: Self.nonEmpty(event.location),
            notes: Self.nonEmpty(event.notes), start: event.startDate, end: event.endDate, isAllDay: event.isAllDay,
            timeZone: event.isAllDay ? nil : event.timeZone?.identifier, organizer: event.organizer.map(Self.person),
            attendees: (event.attendees ?? []).map(Self.person),
            recurrenceRule: event.recurrenceRules?.first.map { rule($0, of: event).value },
            status: Self.statusText(event.status))
    }

    /// The series `master` (as `event(withIdentifier:)` gives it: its first occurrence) and its
    /// detached occurrences as VEVENTs, the master first.
    func veventBytes(of master: EKEvent) -> [UInt8] {
        var bytes = ICSWriter.vevent(vevent(master, recurrenceID: nil))
        for occurrence in detachedOccurrences(of: master) {
            bytes += ICSWriter.vevent(vevent(occurrence, recurrenceID: occurrence.occurrenceDate))
        }
        return bytes
    }

    /// One VEVENT (see the extension's notes).
    func vevent(_ event: EKEvent, recurrenceID: Date?) -> ICSWriter.Event {
        let zone = event.timeZone ?? floatingTimeZone
        let startDate: Date = event.startDate
        let endDate: Date = max(event.endDate ?? startDate, startDate)
        let start: ICSWriter.Time
        let end: ICSWriter.Time
        if event.isAllDay {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let lastDay = calendar.startOfDay(for: endDate)
            start = ICSWriter.Time(date: startDate, form: .date(zone))
            end = ICSWriter.Time(date: calendar.date(byAdding: .day, value: 1, to: lastDay) ?? lastDay, form: .date(zone))
        } else {
            start = time(startDate, of: event)
            end = time(endDate, of: event)
        }
        var extra: [ICSWriter.Property] = []
        if let calendar = event.calendar {
            extra.append(ICSWriter.Property(name: "X-EXERASER-CALENDAR", value: ICSWriter.escapeText(calendar.calendarIdentifier)))
        }
        if let identifier = event.eventIdentifier {
            extra.append(ICSWriter.Property(name: "X-EXERASER-EVENT-ID", value: ICSWriter.escapeText(identifier)))
        }
        return ICSWriter.Event(
            uid: event.calendarItemExternalIdentifier ?? event.calendarItemIdentifier,
            stamp: event.lastModifiedDate ?? event.creationDate ?? startDate,
            start: start, end: end,
            recurrenceID: recurrenceID.map { event.isAllDay ? ICSWriter.Time(date: $0, form: .date(zone)) : time($0, of: event) },
            summary: event.title, location: event.location, notes: event.notes, status: Self.statusText(event.status),
            url: event.url?.absoluteString,
            organizer: event.organizer.map(Self.writerPerson), attendees: (event.attendees ?? []).map(Self.writerPerson),
            rules: recurrenceID == nil ? (event.recurrenceRules ?? []).map { rule($0, of: event) } : [],
            created: event.creationDate, lastModified: event.lastModifiedDate, extra: extra)
    }

    /// A timed event's date: with its zone's `TZID`, in UTC for a UTC event, floating without a zone.
    private func time(_ date: Date, of event: EKEvent) -> ICSWriter.Time {
        guard let zone = event.timeZone else { return ICSWriter.Time(date: date, form: .floating(floatingTimeZone)) }
        if zone.identifier == "UTC" || zone.identifier == "GMT" { return ICSWriter.Time(date: date, form: .utc) }
        return ICSWriter.Time(date: date, form: .zoned(zone))
    }

    /// An `EKRecurrenceRule` as an `RRULE` (`UNTIL` a DATE for an all-day event, else UTC).
    func rule(_ rule: EKRecurrenceRule, of event: EKEvent) -> ICSWriter.Rule {
        let frequency: ICSWriter.Rule.Frequency
        switch rule.frequency {
        case .daily: frequency = .daily
        case .weekly: frequency = .weekly
        case .monthly: frequency = .monthly
        case .yearly: frequency = .yearly
        @unknown default: frequency = .daily
        }
        var written = ICSWriter.Rule(frequency: frequency, interval: max(1, rule.interval))
        if let recurrenceEnd = rule.recurrenceEnd {
            if let until = recurrenceEnd.endDate {
                written.until = ICSWriter.Time(date: until, form: event.isAllDay ? .date(event.timeZone ?? floatingTimeZone) : .utc)
            } else if recurrenceEnd.occurrenceCount > 0 {
                written.count = recurrenceEnd.occurrenceCount
            }
        }
        written.byDay = (rule.daysOfTheWeek ?? []).map {
            ICSWriter.Rule.Day(weekday: $0.dayOfTheWeek.rawValue, ordinal: $0.weekNumber == 0 ? nil : $0.weekNumber)
        }
        written.byMonthDay = (rule.daysOfTheMonth ?? []).map(\.intValue)
        written.byMonth = (rule.monthsOfTheYear ?? []).map(\.intValue)
        written.byWeekNumber = (rule.weeksOfTheYear ?? []).map(\.intValue)
        written.byYearDay = (rule.daysOfTheYear ?? []).map(\.intValue)
        written.bySetPosition = (rule.setPositions ?? []).map(\.intValue)
        written.weekStart = rule.firstDayOfTheWeek == 0 ? nil : rule.firstDayOfTheWeek
        return written
    }

    // MARK: - People and status

    /// A participant as the protocol's person: its name, and its `mailto:` or `tel:` address.
    static func person(_ participant: EKParticipant) -> EventPerson {
        let address = participant.url.absoluteString
        let lower = address.lowercased()
        var person = EventPerson(name: nonEmpty(participant.name))
        if lower.hasPrefix("mailto:") {
            person.email = nonEmpty(String(address.dropFirst(7)).removingPercentEncoding ?? String(address.dropFirst(7)))
        } else if lower.hasPrefix("tel:") {
            person.phone = nonEmpty(String(address.dropFirst(4)).removingPercentEncoding ?? String(address.dropFirst(4)))
        }
        return person
    }

    /// A participant as a VEVENT's `ORGANIZER` or `ATTENDEE`.
    static func writerPerson(_ participant: EKParticipant) -> ICSWriter.Person {
        let role: String? = switch participant.participantRole {
        case .required: "REQ-PARTICIPANT"
        case .optional: "OPT-PARTICIPANT"
        case .chair: "CHAIR"
        case .nonParticipant: "NON-PARTICIPANT"
        default: nil
        }
        let status: String? = switch participant.participantStatus {
        case .pending: "NEEDS-ACTION"
        case .accepted: "ACCEPTED"
        case .declined: "DECLINED"
        case .tentative: "TENTATIVE"
        case .delegated: "DELEGATED"
        case .completed: "COMPLETED"
        case .inProcess: "IN-PROCESS"
        default: nil
        }
        return ICSWriter.Person(name: nonEmpty(participant.name), address: participant.url.absoluteString,
                                role: role, participationStatus: status)
    }

    /// `STATUS` as iCalendar writes it; `nil` for `.none`.
    static func statusText(_ status: EKEventStatus) -> String? {
        switch status {
        case .confirmed: "CONFIRMED"
        case .tentative: "TENTATIVE"
        case .canceled: "CANCELLED"
        default: nil
        }
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }
}
#endif
