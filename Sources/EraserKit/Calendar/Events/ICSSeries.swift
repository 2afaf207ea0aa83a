import Crypto
import Foundation
import KindredCrypto

/// The VEVENTs of one file that make one event: a master (no `RECURRENCE-ID`) and the VEVENTs
/// with its `UID` that override some of its occurrences.
///
/// Ids: `<calendar>/<UID>` for the series; `<calendar>/<UID>#<RECURRENCE-ID as written>` for
/// each override (an occurrence's `instanceID`). A second VEVENT with the same `UID` and no
/// `RECURRENCE-ID` (invalid, but seen) is an event of its own, `<calendar>/<UID>~2`, `~3`, …;
/// overrides belong to the first. Overrides whose master is not in the file (an invitation to one
/// occurrence) make a series of their own. A VEVENT without `UID` is named by its bytes:
/// `<calendar>/sha256:<first 16 hex digits>`.
struct ICSSeriesGroup: Sendable {
    let id: EventID
    var master: ICSComponent?
    var overrides: [(id: EventID, component: ICSComponent)]

    /// Every VEVENT of the series, in file order.
    var components: [ICSComponent] {
        ((master.map { [$0] } ?? []) + overrides.map(\.component)).sorted { $0.byteRange.lowerBound < $1.byteRange.lowerBound }
    }

    /// Groups a file's VEVENTs, in the order of their first VEVENT in the file.
    static func groups(in document: ICSDocument, calendar: String) -> [ICSSeriesGroup] {
        var groups: [ICSSeriesGroup] = []
        var firstByUID: [String: Int] = [:]
        var mastersByUID: [String: Int] = [:]
        var orphans: [String: [ICSComponent]] = [:]
        var orphanOrder: [String] = []
        for component in document.events {
            let uid = component.property("UID").map { ICSText.unescape($0.value).trimmingASCIISpaces() }.flatMap { $0.isEmpty ? nil : $0 }
                ?? "sha256:" + Hex.encode(SHA256.hash(data: Array(document.bytes[component.byteRange])).prefix(8))
            if component.property("RECURRENCE-ID") != nil {
                if orphans[uid] == nil { orphanOrder.append(uid) }
                orphans[uid, default: []].append(component)
                continue
            }
            let seen = mastersByUID[uid, default: 0]
            mastersByUID[uid] = seen + 1
            let id = EventID(rawValue: "\(calendar)/\(uid)" + (seen == 0 ? "" : "~\(seen + 1)"))
            if seen == 0 { firstByUID[uid] = groups.count }
            groups.append(ICSSeriesGroup(id: id, master: component, overrides: []))
        }
        for uid in orphanOrder {
            let overrides = orphans[uid, default: []].map { component in
                let recurrenceID = component.property("RECURRENCE-ID")?.value.trimmingASCIISpaces() ?? ""
                return (id: EventID(rawValue: "\(calendar)/\(uid)#\(recurrenceID)"), component: component)
            }
            if let index = firstByUID[uid] {
                groups[index].overrides = overrides
            } else {
                groups.append(ICSSeriesGroup(id: EventID(rawValue: "\(calendar)/\(uid)"), master: nil, overrides: overrides))
            }
        }
        return groups
    }
}

/// A series with its VEVENTs read.
struct ICSSeries: Sendable {
    let id: EventID
    let calendar: String
    /// `nil` when only overrides are in the file.
    let master: ICSEvent?
    let overrides: [(id: EventID, event: ICSEvent)]

    /// The event that stands for the series: the master, else the first override.
    var representative: ICSEvent { master ?? overrides[0].event }

    /// The series (or one override, by its id) as a `CalendarEvent`.
    func calendarEvent(_ event: ICSEvent, id: EventID, floating: any ICSZone) -> CalendarEvent {
        let zone = event.start.concreteZone(floating: floating)
        let start = zone.instant(for: event.start.wall)
        let end = event.end.map { $0.instant(floating: floating) }.map { max($0, start) }
            ?? event.length.end(wall: event.start.wall, start: start, zone: zone)
        return CalendarEvent(
            id: id, calendar: calendar, title: event.summary ?? "", location: event.location, notes: event.description,
            start: Date(timeIntervalSince1970: TimeInterval(start)), end: Date(timeIntervalSince1970: TimeInterval(end)),
            isAllDay: event.start.isDate, timeZone: event.start.zoneIdentifier, organizer: event.organizer,
            attendees: event.attendees, recurrenceRule: event.ruleText, status: event.status)
    }
}
