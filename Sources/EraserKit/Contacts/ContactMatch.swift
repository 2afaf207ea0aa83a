/// Where and how a contact was found in a calendar event, and how sure that is.
///
/// Confidence, by kind and field:
///
/// | kind | organizer / attendee | title, location, notes |
/// | --- | --- | --- |
/// | `email`: the same address (case-insensitive, `mailto:` trimmed) | 1.0 | 0.9 |
/// | `phone`: the same country code and national number | 1.0 | 0.9 |
/// | `phoneNationalNumber`: one side has no country code, national numbers equal | 0.95 | 0.85 |
/// | `fullName`: every word of a two-or-more-word name | 0.9 | 0.9 |
/// | `firstName`: the first word of the name (or a one-word name) alone | 0.6 | 0.5 |
///
/// A person's name (`CN`) matches a full name with its words in any order ("Taylor, Sam"); free
/// text needs them next to each other, in either order ("Dinner with Sam Taylor"). A last name
/// alone never matches.
public struct ContactMatch: Sendable, Equatable, Codable {
    /// The part of the event that matched.
    public enum Field: String, Sendable, Codable, CaseIterable {
        case organizer
        case attendee
        case title
        case location
        case notes
    }

    /// What matched.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case email
        case phone
        case phoneNationalNumber = "phone_national_number"
        case fullName = "full_name"
        case firstName = "first_name"
    }

    public var field: Field
    /// Which attendee (0-based, in the event's order) for `.attendee`.
    public var attendeeIndex: Int?
    public var kind: Kind
    /// The event's value that matched: the address or number as written, the `CN`, the text.
    public var value: String
    /// 0 to 1, from the table above.
    public var confidence: Double

    public init(field: Field, attendeeIndex: Int? = nil, kind: Kind, value: String, confidence: Double) {
        self.field = field
        self.attendeeIndex = attendeeIndex
        self.kind = kind
        self.value = value
        self.confidence = confidence
    }

    /// The confidence of `kind` found in a person's address (`person`) or in free text.
    static func confidence(_ kind: Kind, inPerson person: Bool) -> Double {
        switch kind {
        case .email, .phone: person ? 1.0 : 0.9
        case .phoneNationalNumber: person ? 0.95 : 0.85
        case .fullName: 0.9
        case .firstName: person ? 0.6 : 0.5
        }
    }
}
