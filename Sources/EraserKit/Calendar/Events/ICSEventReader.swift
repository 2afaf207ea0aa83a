/// Interprets VEVENTs (RFC 5545 §3.6.1, §3.8): dates with their zones, people, text, and the
/// recurrence properties.
struct ICSEventReader {
    let file: String
    let zones: TimeZoneResolver

    /// Reads one VEVENT.
    /// - Throws: `CalendarError.malformed` for a missing `DTSTART` or a value that is not what
    ///   its property needs; `.unknownTimeZone` for a `TZID` nothing defines. (A bad `RRULE` is
    ///   kept in `ICSEvent.rules` instead.)
    func read(_ component: ICSComponent) throws(CalendarError) -> ICSEvent {
        guard let startProperty = component.property("DTSTART") else {
            throw .malformed(file: file, line: component.line, reason: "VEVENT has no DTSTART")
        }
        let start = try time(startProperty)
        var end: ICSTime?
        let length: OccurrenceLength
        if let endProperty = component.property("DTEND") {
            let dtend = try time(endProperty)
            end = dtend
            if start.isDate, dtend.isDate {
                length = .nominal(days: max(0, dtend.wall.date.dayNumber - start.wall.date.dayNumber), seconds: 0)
            } else {
                let utc = UTCZone()
                length = .exact(seconds: max(0, dtend.instant(floating: utc) - start.instant(floating: utc)))
            }
        } else if let durationProperty = component.property("DURATION") {
            guard let duration = ICSDuration.parse(durationProperty.value) else {
                throw .malformed(file: file, line: durationProperty.line, reason: "DURATION \"\(durationProperty.value)\" is not a duration")
            }
            length = .nominal(days: max(0, duration.days), seconds: max(0, duration.seconds))
        } else {
            length = start.isDate ? .nominal(days: 1, seconds: 0) : .exact(seconds: 0)
        }
        var rules: Result<[RecurrenceRule], CalendarError> = .success([])
        do {
            var parsed: [RecurrenceRule] = []
            for property in component.properties("RRULE") { parsed.append(try RecurrenceRule.parse(property, file: file)) }
            rules = .success(parsed)
        } catch {
            rules = .failure(error)
        }
        var recurrenceDates: [RecurrenceDate] = []
        for property in component.properties("RDATE") { recurrenceDates += try self.recurrenceDates(property) }
        var exceptionDates: [ICSTime] = []
        for property in component.properties("EXDATE") { exceptionDates += try times(property) }
        return ICSEvent(
            component: component,
            uid: text(component, "UID"),
            recurrenceID: try component.property("RECURRENCE-ID").map { (property) throws(CalendarError) in try time(property) },
            summary: text(component, "SUMMARY"),
            location: text(component, "LOCATION"),
            description: text(component, "DESCRIPTION"),
            status: component.property("STATUS").map { $0.value.trimmingASCIISpaces().uppercased() },
            organizer: component.property("ORGANIZER").map(ICSCalendarAddress.person),
            attendees: component.properties("ATTENDEE").map(ICSCalendarAddress.person),
            start: start, length: length, end: end, rules: rules,
            ruleText: component.property("RRULE")?.value,
            recurrenceDates: recurrenceDates, exceptionDates: exceptionDates)
    }

    /// A TEXT property's unescaped value, `nil` when missing or blank.
    private func text(_ component: ICSComponent, _ name: String) -> String? {
        guard let value = component.property(name)?.value else { return nil }
        let text = ICSText.unescape(value)
        return text.allSatisfy(\.isWhitespace) ? nil : text
    }

    /// A single DATE or DATE-TIME property.
    func time(_ property: ICSProperty) throws(CalendarError) -> ICSTime {
        try resolve(property.value, property)
    }

    /// A list of DATE or DATE-TIME values (`EXDATE:20240105T090000,20240112T090000`).
    private func times(_ property: ICSProperty) throws(CalendarError) -> [ICSTime] {
        var result: [ICSTime] = []
        for item in ICSText.splitList(property.value) where !item.trimmingASCIISpaces().isEmpty {
            result.append(try resolve(item, property))
        }
        return result
    }

    private func recurrenceDates(_ property: ICSProperty) throws(CalendarError) -> [RecurrenceDate] {
        guard property.parameter("VALUE")?.uppercased() == "PERIOD" else { return try times(property).map { .start($0) } }
        var result: [RecurrenceDate] = []
        for item in ICSText.splitList(property.value) where !item.isEmpty {
            let halves = item.split(separator: "/", maxSplits: 1).map(String.init)
            guard halves.count == 2 else {
                throw .malformed(file: file, line: property.line, reason: "RDATE period \"\(item)\" has no \"/\"")
            }
            let start = try resolve(halves[0], property)
            if let duration = ICSDuration.parse(halves[1]) {
                result.append(.periodWithDuration(start, duration))
            } else {
                result.append(.period(start, end: try resolve(halves[1], property)))
            }
        }
        return result
    }

    private func resolve(_ value: String, _ property: ICSProperty) throws(CalendarError) -> ICSTime {
        let valueType = property.parameter("VALUE")
        guard let raw = ICSRawTime.parse(value, valueType: valueType == "PERIOD" ? nil : valueType, tzid: property.parameter("TZID")) else {
            throw .malformed(file: file, line: property.line, reason: "\(property.name) \"\(value)\" is not a date or date-time")
        }
        switch raw.form {
        case .date: return ICSTime(wall: raw.wall, isDate: true, zone: .floating)
        case .utc: return ICSTime(wall: raw.wall, isDate: false, zone: .utc)
        case .floating: return ICSTime(wall: raw.wall, isDate: false, zone: .floating)
        case .zoned(let tzid): return ICSTime(wall: raw.wall, isDate: false, zone: .named(try zones.zone(tzid, line: property.line)))
        }
    }
}
