import Foundation

/// Checks and normalises what clients send to the accounts routes.
package enum AccountInput {
    /// The normalised e-mail: trimmed and lower-cased, checked for a plausible shape.
    /// - Throws: `invalidEmail`.
    package static func email(_ raw: String) throws -> String {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !email.isEmpty else { throw KindredError.invalidEmail("the e-mail address is empty") }
        guard email.utf8.count <= 254 else { throw KindredError.invalidEmail("the e-mail address is longer than 254 bytes") }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last,
            (1...64).contains(local.utf8.count), domain.contains("."),
            !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains(".."),
            email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else { throw KindredError.invalidEmail("\"\(email.prefix(80))\" is not an e-mail address") }
        return email
    }

    /// Checks a new password: 8 to 256 characters.
    /// - Throws: `weakPassword`.
    package static func newPassword(_ password: String) throws {
        guard password.count >= 8 else { throw KindredError.weakPassword("the password must have at least 8 characters") }
        guard password.count <= 256, password.utf8.count <= 1024 else {
            throw KindredError.weakPassword("the password must have at most 256 characters")
        }
    }

    /// A candidate password at login: anything past the new-password limits cannot match.
    package static func isPlausiblePassword(_ password: String) -> Bool {
        !password.isEmpty && password.utf8.count <= 1024
    }

    /// A name field: at most 100 characters without control characters; empty clears it.
    /// - Throws: `invalidProfile`.
    package static func name(_ value: String, field: String) throws -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= 100 else { throw KindredError.invalidProfile("\(field) must have at most 100 characters") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw KindredError.invalidProfile("\(field) must not contain control characters")
        }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A photo URL: an absolute https URL of at most 2048 bytes; empty clears it.
    /// - Throws: `invalidProfile`.
    package static func photoURL(_ value: String) throws -> String? {
        guard !value.isEmpty else { return nil }
        guard value.utf8.count <= 2048, let url = URL(string: value), url.scheme?.lowercased() == "https",
            let host = url.host, !host.isEmpty
        else { throw KindredError.invalidProfile("photoURL must be an https URL of at most 2048 bytes") }
        return value
    }

    /// An IANA time zone identifier; empty clears it.
    /// - Throws: `invalidProfile` (code `invalid_profile`) naming the zone.
    package static func timeZone(_ value: String) throws -> String? {
        guard !value.isEmpty else { return nil }
        guard value.utf8.count <= 64, TimeZone(identifier: value) != nil, value.contains("/") || value == "UTC" else {
            throw KindredError.invalidProfile("timeZone \"\(value.prefix(64))\" is not an IANA time zone")
        }
        return value
    }

    /// A BCP 47 language tag (`tr`, `en-US`, `zh-Hant-TW`); empty clears it.
    /// - Throws: `invalidProfile`.
    package static func locale(_ value: String) throws -> String? {
        guard !value.isEmpty else { return nil }
        let subtags = value.split(separator: "-", omittingEmptySubsequences: false)
        guard value.utf8.count <= 35, let language = subtags.first,
            (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }),
            subtags.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { throw KindredError.invalidProfile("locale \"\(value.prefix(35))\" is not a BCP 47 language tag") }
        return value
    }
}
