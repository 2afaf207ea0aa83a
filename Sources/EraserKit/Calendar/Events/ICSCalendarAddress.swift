/// `ORGANIZER` and `ATTENDEE` (RFC 5545 §3.8.4.3, §3.8.4.1) as people.
enum ICSCalendarAddress {
    /// The person a calendar-address property names: `CN` as the name; a `mailto:` value (any
    /// case) as the e-mail address, else the `EMAIL` parameter (RFC 7986), else a bare value with
    /// an `@`; a `tel:` value as the phone number.
    static func person(_ property: ICSProperty) -> EventPerson {
        let value = property.value.trimmingASCIISpaces()
        let lower = value.lowercased()
        var person = EventPerson()
        if lower.hasPrefix("mailto:") {
            person.email = nonBlank(String(value.dropFirst(7)))
        } else if lower.hasPrefix("tel:") {
            person.phone = nonBlank(String(value.dropFirst(4)))
        } else if value.contains("@"), !value.contains(":") {
            person.email = nonBlank(value)
        }
        if person.email == nil { person.email = property.parameter("EMAIL").flatMap(nonBlank) }
        person.name = property.parameter("CN").flatMap(nonBlank)
        return person
    }

    private static func nonBlank(_ text: String) -> String? {
        let trimmed = text.trimmingASCIISpaces()
        return trimmed.isEmpty ? nil : trimmed
    }
}
