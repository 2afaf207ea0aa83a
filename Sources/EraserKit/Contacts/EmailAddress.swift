import Foundation

/// E-mail addresses as compared: trimmed, without `mailto:` or angle brackets, lower-cased
/// (the whole address: providers treat the local part case-insensitively too).
enum EmailAddress {
    /// The normalised address, or `nil` when `text` has no `@` with something on both sides.
    static func normalize(_ text: String) -> String? {
        var address = Substring(text.trimmingCharacters(in: .whitespaces))
        if address.lowercased().hasPrefix("mailto:") { address = address.dropFirst(7) }
        if let query = address.firstIndex(of: "?") { address = address[..<query] }
        address = Substring(String(address).trimmingCharacters(in: CharacterSet(charactersIn: "<> \t")))
        guard let at = address.firstIndex(of: "@"), at != address.startIndex, address.index(after: at) != address.endIndex else {
            return nil
        }
        return address.lowercased()
    }

    /// Whether `address` (normalised) is written in `text`, not as part of a longer address.
    static func occurs(_ address: String, in text: String) -> Bool {
        let haystack = Array(text.lowercased().unicodeScalars)
        let needle = Array(address.unicodeScalars)
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        func isAddressCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._%+-@".unicodeScalars.contains(scalar)
        }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            guard haystack[start..<(start + needle.count)].elementsEqual(needle) else { continue }
            let before = start > 0 ? haystack[start - 1] : nil
            let end = start + needle.count
            var after = end < haystack.count ? haystack[end] : nil
            if after == ".", end + 1 >= haystack.count || !isAddressCharacter(haystack[end + 1]) { after = nil }  // a full stop
            if before.map(isAddressCharacter) != true, after.map(isAddressCharacter) != true { return true }
        }
        return false
    }
}
