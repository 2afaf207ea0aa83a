import Foundation

/// Names reduced for comparing: case, diacritics and Turkish dotted/dotless i set aside.
enum NameFolding {
    /// `text` lower-cased without diacritics: "İpek Çağrı" → "ipek cagri"; `ı` and `İ` both
    /// become `i`; letters that do not decompose are spelled out (`ß` → `ss`, `ø` → `o`,
    /// `ł` → `l`, `æ` → `ae`, …).
    static func fold(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: break
            }
            let lower = String(scalar).lowercased()
            if let spelled = spelledOut[lower] {
                result.append(contentsOf: spelled.unicodeScalars)
            } else {
                result.append(contentsOf: lower.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                    $0.properties.generalCategory != .nonspacingMark
                })
            }
        }
        return String(result)
    }

    /// The words of `text`, folded: runs of letters and digits (anything else separates).
    static func tokens(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    private static let spelledOut: [String: String] = [
        "ı": "i", "ß": "ss", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "æ": "ae", "œ": "oe", "þ": "th", "ħ": "h",
    ]
}
