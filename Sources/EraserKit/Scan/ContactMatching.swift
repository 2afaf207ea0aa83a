/// The ex as a contact: what the contact phase looks for in calendar events.
public struct ScanContact: Sendable, Equatable, Codable {
    /// The name as the user knows it.
    public var name: String?
    /// Phone numbers, as typed (the matcher normalises them).
    public var phones: [String]
    /// E-mail addresses.
    public var emails: [String]

    /// A contact; blank entries are ignored by `isEmpty`.
    public init(name: String? = nil, phones: [String] = [], emails: [String] = []) {
        self.name = name
        self.phones = phones
        self.emails = emails
    }

    /// Whether there is nothing to look for (every field missing or blank).
    public var isEmpty: Bool {
        let blank: (String) -> Bool = { $0.allSatisfy(\.isWhitespace) }
        return (name.map(blank) ?? true) && phones.allSatisfy(blank) && emails.allSatisfy(blank)
    }
}

/// Decides whether a calendar event involves the ex (seed §4.1 "ContactMatcher"): a name, phone
/// number or e-mail address matched against the event's attendees, organizer and title. The
/// contacts area's `ContactMatcher` conforms; the scan engine makes one per scan from its
/// `ScanContact`.
public protocol ContactMatching: Sendable {
    /// The best hit in `event`, or `nil` when the event does not involve the contact.
    func match(_ event: CalendarEvent) -> ContactHit?
}

/// Where in an event a contact was found.
public enum ContactField: String, Sendable, Codable, CaseIterable {
    /// An attendee's name (`CN`).
    case attendeeName = "attendee_name"
    /// An attendee's e-mail address.
    case attendeeEmail = "attendee_email"
    /// An attendee's phone number (normalised).
    case attendeePhone = "attendee_phone"
    /// The organizer's name.
    case organizerName = "organizer_name"
    /// The organizer's e-mail address.
    case organizerEmail = "organizer_email"
    /// The organizer's phone number (normalised).
    case organizerPhone = "organizer_phone"
    /// The event's title.
    case title
}

/// A contact found in an event: the field, the value that matched and how sure the match is.
public struct ContactHit: Sendable, Equatable, Codable {
    /// The field that matched.
    public var field: ContactField
    /// The event's value that matched (the attendee's address, the title, …).
    public var value: String
    /// 0 to 1 (an exact e-mail address is surer than a first name in a title); the engine clamps it.
    public var confidence: Double

    /// A hit.
    public init(field: ContactField, value: String, confidence: Double) {
        self.field = field
        self.value = value
        self.confidence = confidence
    }
}
