/// Finds the ex in calendar events: their contact card (names, phone numbers, e-mail addresses,
/// in any mix) against each event's organizer, attendees, title, location and notes.
/// `ContactMatch` documents the kinds of match and their confidence.
public struct ContactMatcher: Sendable {
    /// Names as the user knows the ex ("Sam Taylor", a nickname).
    public let names: [String]
    /// Phone numbers as typed.
    public let phones: [String]
    /// E-mail addresses as typed.
    public let emails: [String]
    /// The calling code of numbers written without one (`90` for Turkey), on both sides.
    public let defaultCountryCode: Int?

    private let nameTokens: [[String]]
    private let phoneNumbers: [PhoneNumber]
    private let emailAddresses: [String]

    /// A matcher for one contact; blank and unreadable entries are left out.
    public init(names: [String] = [], phones: [String] = [], emails: [String] = [], defaultCountryCode: Int? = nil) {
        self.names = names
        self.phones = phones
        self.emails = emails
        self.defaultCountryCode = defaultCountryCode
        nameTokens = names.map(NameFolding.tokens).filter { !$0.isEmpty }
        phoneNumbers = phones.compactMap { PhoneNumber($0, defaultCountryCode: defaultCountryCode) }
        emailAddresses = emails.compactMap(EmailAddress.normalize)
    }

    /// A matcher for the scan's contact.
    public init(_ contact: ScanContact, defaultCountryCode: Int? = nil) {
        self.init(names: contact.name.map { [$0] } ?? [], phones: contact.phones, emails: contact.emails,
                  defaultCountryCode: defaultCountryCode)
    }

    /// Whether nothing usable was given (the matcher then matches nothing).
    public var isEmpty: Bool { nameTokens.isEmpty && phoneNumbers.isEmpty && emailAddresses.isEmpty }

    /// Every match in `event`, surest first (then organizer, attendees, title, location, notes).
    public func matches(in event: CalendarEvent) -> [ContactMatch] {
        var found: [ContactMatch] = []
        if let organizer = event.organizer { found += matches(in: organizer, field: .organizer, index: nil) }
        for (index, attendee) in event.attendees.enumerated() { found += matches(in: attendee, field: .attendee, index: index) }
        for (field, text) in [(ContactMatch.Field.title, event.title), (.location, event.location), (.notes, event.notes)] {
            if let text { found += matches(inText: text, field: field) }
        }
        let order = Dictionary(uniqueKeysWithValues: ContactMatch.Field.allCases.enumerated().map { ($1, $0) })
        return found.enumerated().sorted {
            ($1.element.confidence, order[$0.element.field]!, $0.offset) < ($0.element.confidence, order[$1.element.field]!, $1.offset)
        }.map(\.element)
    }

    /// The surest match in `event`, or `nil`.
    public func bestMatch(in event: CalendarEvent) -> ContactMatch? { matches(in: event).first }

    /// The matches in one person: their e-mail address, phone number and name (each at most once).
    public func matches(in person: EventPerson, field: ContactMatch.Field, index: Int?) -> [ContactMatch] {
        var found: [ContactMatch] = []
        func add(_ kind: ContactMatch.Kind, _ value: String) {
            found.append(ContactMatch(field: field, attendeeIndex: index, kind: kind, value: value,
                                      confidence: ContactMatch.confidence(kind, inPerson: true)))
        }
        if let email = person.email, let address = EmailAddress.normalize(email), emailAddresses.contains(address) {
            add(.email, email)
        }
        if let phone = person.phone, let kind = phoneMatch(phone) { add(kind, phone) }
        if let name = person.name, let kind = nameMatch(NameFolding.tokens(name), anyOrder: true) { add(kind, name) }
        return found
    }

    /// The matches in free text: an address or number written in it, a name among its words.
    public func matches(inText text: String, field: ContactMatch.Field) -> [ContactMatch] {
        var found: [ContactMatch] = []
        func add(_ kind: ContactMatch.Kind) {
            found.append(ContactMatch(field: field, kind: kind, value: text, confidence: ContactMatch.confidence(kind, inPerson: false)))
        }
        if emailAddresses.contains(where: { EmailAddress.occurs($0, in: text) }) { add(.email) }
        let kinds = PhoneText.candidates(in: text).compactMap(phoneMatch)
        if let kind = kinds.contains(.phone) ? .phone : kinds.first { add(kind) }
        if let kind = nameMatch(NameFolding.tokens(text), anyOrder: false) { add(kind) }
        return found
    }

    private func phoneMatch(_ text: String) -> ContactMatch.Kind? {
        guard let number = PhoneNumber(text, defaultCountryCode: defaultCountryCode) else { return nil }
        let kinds = phoneNumbers.compactMap { $0.match(number) }
        return kinds.contains(.phone) ? .phone : kinds.first
    }

    /// `.fullName` when every word of a name of two or more words is in `words` (in a person's
    /// name in any order; in text next to each other, in order or reversed), else `.firstName`
    /// when its first word is one of `words`.
    private func nameMatch(_ words: [String], anyOrder: Bool) -> ContactMatch.Kind? {
        guard !words.isEmpty else { return nil }
        var first = false
        for name in nameTokens {
            if name.count >= 2 {
                if anyOrder ? Set(name).isSubset(of: words) : (Self.contains(words, name) || Self.contains(words, name.reversed())) {
                    return .fullName
                }
            }
            if name[0].count >= 2, words.contains(name[0]) { first = true }
        }
        return first ? .firstName : nil
    }

    private static func contains(_ words: [String], _ run: [String]) -> Bool {
        guard run.count <= words.count else { return false }
        return (0...(words.count - run.count)).contains { words[$0..<($0 + run.count)].elementsEqual(run) }
    }
}

extension ContactMatcher: ContactMatching {
    /// The surest match the scan can record as a `ContactHit`. A match in the location or the
    /// notes is recorded when `ContactField` has a case of that name (`location`, `notes`), and
    /// skipped otherwise.
    public func match(_ event: CalendarEvent) -> ContactHit? {
        for found in matches(in: event) {
            if let field = Self.contactField(found) {
                return ContactHit(field: field, value: found.value, confidence: found.confidence)
            }
        }
        return nil
    }

    static func contactField(_ match: ContactMatch) -> ContactField? {
        let what: String = switch match.kind {
        case .email: "email"
        case .phone, .phoneNationalNumber: "phone"
        case .fullName, .firstName: "name"
        }
        switch match.field {
        case .organizer: return ContactField(rawValue: "organizer_\(what)")
        case .attendee: return ContactField(rawValue: "attendee_\(what)")
        case .title, .location, .notes: return ContactField(rawValue: match.field.rawValue)
        }
    }
}

/// Phone numbers written in free text.
enum PhoneText {
    /// Runs of digits and phone separators with at least 7 digits (`0532 123 45 67`,
    /// `+1 (415) 555-0100`).
    static func candidates(in text: String) -> [String] {
        var result: [String] = []
        var current = ""
        var digits = 0
        func flush() {
            if digits >= 7 { result.append(current.trimmingASCIISpaces()) }
            current = ""
            digits = 0
        }
        for character in text {
            if character.isASCII, character.isNumber {
                current.append(character)
                digits += 1
            } else if character == "+" && digits == 0 || (digits > 0 && (character == " " || "-./()".contains(character))) {
                current.append(character)
            } else if character == "(" {
                current.append(character)
            } else {
                flush()
            }
        }
        flush()
        return result
    }
}
