import Foundation
import Testing

@testable import EraserKit

@Suite struct ContactMatcherTests {
    private func event(title: String = "", location: String? = nil, notes: String? = nil,
                       organizer: EventPerson? = nil, attendees: [EventPerson] = []) -> CalendarEvent {
        CalendarEvent(id: EventID(rawValue: "c/e"), calendar: "c", title: title, location: location, notes: notes,
                      start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 3600),
                      organizer: organizer, attendees: attendees)
    }

    @Test func aFirstNameMatchesAWordNotAPrefix() {
        let sam = ContactMatcher(names: ["Sam"])
        #expect(sam.bestMatch(in: event(attendees: [EventPerson(name: "Sam Taylor")]))
            == ContactMatch(field: .attendee, attendeeIndex: 0, kind: .firstName, value: "Sam Taylor", confidence: 0.6))
        #expect(sam.bestMatch(in: event(attendees: [EventPerson(name: "Samantha Jones")])) == nil)
        #expect(sam.bestMatch(in: event(title: "Samantha's birthday")) == nil)
        #expect(sam.bestMatch(in: event(title: "Dinner with Sam"))
            == ContactMatch(field: .title, kind: .firstName, value: "Dinner with Sam", confidence: 0.5))
        #expect(sam.bestMatch(in: event(title: "Sam's birthday"))?.kind == .firstName)
    }

    @Test func aFullNameMatchesInAnyOrderInAPersonAndSideBySideInText() {
        let matcher = ContactMatcher(names: ["Sam Taylor"])
        #expect(matcher.bestMatch(in: event(organizer: EventPerson(name: "Taylor, Sam")))
            == ContactMatch(field: .organizer, kind: .fullName, value: "Taylor, Sam", confidence: 0.9))
        #expect(matcher.bestMatch(in: event(attendees: [EventPerson(name: "Sam J. Taylor")]))?.kind == .fullName)
        #expect(matcher.bestMatch(in: event(title: "Dinner with Sam Taylor"))?.kind == .fullName)
        #expect(matcher.bestMatch(in: event(title: "Taylor Sam party"))?.kind == .fullName)
        #expect(matcher.bestMatch(in: event(title: "Sam and Alex Taylor"))?.kind == .firstName, "not side by side")
        #expect(matcher.bestMatch(in: event(title: "Dinner with Sam"))?.kind == .firstName)
        #expect(matcher.bestMatch(in: event(title: "Taylor Swift concert")) == nil, "a last name alone never matches")
    }

    @Test func namesCompareWithoutCaseDiacriticsOrTurkishDots() {
        let matcher = ContactMatcher(names: ["İrem Işık"])
        #expect(matcher.bestMatch(in: event(attendees: [EventPerson(name: "irem isik")]))?.kind == .fullName)
        #expect(matcher.bestMatch(in: event(attendees: [EventPerson(name: "IREM ISIK")]))?.kind == .fullName)
        #expect(matcher.bestMatch(in: event(title: "Kahve — İREM"))?.kind == .firstName)
        #expect(ContactMatcher(names: ["Çağrı"]).bestMatch(in: event(title: "cagri ile yemek"))?.kind == .firstName)
    }

    @Test func emailsMatchWithoutCaseOrMailto() {
        let matcher = ContactMatcher(emails: [" MAILTO:Sam.Taylor@Example.COM "])
        #expect(matcher.bestMatch(in: event(attendees: [EventPerson(name: "?", email: "sam.taylor@example.com")]))
            == ContactMatch(field: .attendee, attendeeIndex: 0, kind: .email, value: "sam.taylor@example.com", confidence: 1.0))
        #expect(matcher.bestMatch(in: event(organizer: EventPerson(email: "mailto:SAM.TAYLOR@example.com")))?.confidence == 1.0)
        #expect(matcher.bestMatch(in: event(notes: "Invite <sam.taylor@example.com>."))
            == ContactMatch(field: .notes, kind: .email, value: "Invite <sam.taylor@example.com>.", confidence: 0.9))
        #expect(matcher.bestMatch(in: event(notes: "write to sam.taylor@example.com.tr")) == nil)
        #expect(matcher.bestMatch(in: event(notes: "xsam.taylor@example.com")) == nil)
        #expect(matcher.bestMatch(in: event(attendees: [EventPerson(email: "taylor@example.com")])) == nil)
    }

    @Test func phonesMatchByCountryCodeAndNationalNumber() {
        let turkish = ContactMatcher(phones: ["0532 123 45 67"], defaultCountryCode: 90)
        let attendee = event(attendees: [EventPerson(name: "Sam (mobile)", phone: "+90-532-123-45-67")])
        #expect(turkish.bestMatch(in: attendee)
            == ContactMatch(field: .attendee, attendeeIndex: 0, kind: .phone, value: "+90-532-123-45-67", confidence: 1.0))
        let noDefault = ContactMatcher(phones: ["0532 123 45 67"])
        #expect(noDefault.bestMatch(in: attendee)?.kind == .phoneNationalNumber)
        #expect(noDefault.bestMatch(in: attendee)?.confidence == 0.95)
        let notes = event(notes: "Call back on +90 532 123 45 67 before noon, or 212 555 0000")
        #expect(turkish.bestMatch(in: notes)?.kind == .phone)
        #expect(turkish.bestMatch(in: notes)?.confidence == 0.9)
        #expect(noDefault.bestMatch(in: notes)?.confidence == 0.85)
        #expect(turkish.bestMatch(in: event(notes: "Call 0532 123 45 68")) == nil)
        #expect(turkish.bestMatch(in: event(location: "Room 12, 2024-03-05")) == nil)
    }

    @Test func matchesAreOrderedSurestFirst() {
        let matcher = ContactMatcher(names: ["Sam Taylor"], phones: ["+905321234567"], emails: ["sam@example.com"])
        let found = matcher.matches(in: event(
            title: "Dinner with Sam", location: "Sam Taylor's place", notes: "0532 123 45 67",
            organizer: EventPerson(name: "Sam", email: "sam@example.com"),
            attendees: [EventPerson(name: "Taylor Sam", phone: "+90 532 123 45 67")]))
        #expect(found.map(\.kind) == [.email, .phone, .fullName, .fullName, .phoneNationalNumber, .firstName, .firstName])
        #expect(found.map(\.field) == [.organizer, .attendee, .attendee, .location, .notes, .organizer, .title])
        #expect(found.map(\.confidence) == [1.0, 1.0, 0.9, 0.9, 0.85, 0.6, 0.5])
    }

    @Test func anEmptyContactMatchesNothing() {
        let matcher = ContactMatcher(names: ["  "], phones: ["none"], emails: ["not an address"])
        #expect(matcher.isEmpty)
        #expect(matcher.matches(in: event(title: "Anything", attendees: [EventPerson(name: "Anyone", email: "a@b.c")])).isEmpty)
    }

    @Test func theScanSeesAHitWithItsField() {
        let matcher = ContactMatcher(ScanContact(name: "Sam Taylor", phones: ["0532 123 45 67"], emails: ["sam@example.com"]),
                                     defaultCountryCode: 90)
        #expect(matcher.match(event(attendees: [EventPerson(name: "Alex"), EventPerson(email: "SAM@example.com")]))
            == ContactHit(field: .attendeeEmail, value: "SAM@example.com", confidence: 1.0))
        #expect(matcher.match(event(organizer: EventPerson(phone: "+905321234567")))
            == ContactHit(field: .organizerPhone, value: "+905321234567", confidence: 1.0))
        #expect(matcher.match(event(organizer: EventPerson(name: "Sam Taylor")))
            == ContactHit(field: .organizerName, value: "Sam Taylor", confidence: 0.9))
        #expect(matcher.match(event(title: "Lunch with Sam")) == ContactHit(field: .title, value: "Lunch with Sam", confidence: 0.5))
        // A match in the location or notes is a hit when the scan has a field for it.
        let located = matcher.match(event(location: "Sam Taylor's place"))
        if let field = ContactField(rawValue: "location") {
            #expect(located == ContactHit(field: field, value: "Sam Taylor's place", confidence: 0.9))
        } else {
            #expect(located == nil)
        }
        #expect(matcher.match(event(title: "Team lunch")) == nil)
    }
}
