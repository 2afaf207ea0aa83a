import Foundation
import KindredClient
@testable import SoulMateKit
import Testing

@Suite struct SoulMateStringsTests {
    @Test(arguments: SoulMateString.allCases)
    func everyKeyHasBothLanguagesWithTheSamePlaceholders(key: SoulMateString) throws {
        let english = try #require(SoulMateStrings.english[key], "English lacks \(key.rawValue)")
        let turkish = try #require(SoulMateStrings.turkish[key], "Turkish lacks \(key.rawValue)")
        #expect(!english.isEmpty && !turkish.isEmpty)
        #expect(SoulMateStrings.argumentPositions(of: english) == SoulMateStrings.argumentPositions(of: turkish), "\(key.rawValue)")
        let positions = SoulMateStrings.argumentPositions(of: english)
        #expect(positions == (0..<positions.count).map { $0 + 1 }, "placeholders number 1…n, each once")
    }

    @Test func theTablesHoldNoStrayKeys() {
        #expect(SoulMateStrings.english.count == SoulMateString.allCases.count)
        #expect(SoulMateStrings.turkish.count == SoulMateString.allCases.count)
    }

    @Test func turkishIsWrittenWithItsLetters() {
        let all = SoulMateStrings.turkish.values.joined(separator: " ")
        for letter in ["ş", "ğ", "ı", "ç", "ö", "ü", "İ"] { #expect(all.contains(letter), "\(letter)") }
        // Common words a keyboard without Turkish letters would misspell.
        for ascii in ["Giris", "Cikis", "eslesme", "Eslesme", "gonder", "istek gonder", "sifre"] {
            #expect(!all.contains(ascii), "\(ascii)")
        }
    }

    @Test(arguments: [("tr", SoulMateStrings.Language.turkish), ("tr-TR", .turkish), ("tr_TR", .turkish), ("TR", .turkish),
                      ("tr_TR@calendar=gregorian", .turkish), ("en-GB", .english), ("de-DE", .english), ("", .english),
                      ("trk", .english)])
    func theLocaleChoosesTheLanguage(locale: String, language: SoulMateStrings.Language) {
        #expect(SoulMateStrings(locale: locale).language == language)
    }

    @Test func argumentsFillThePlaceholders() {
        let tr = SoulMateStrings(locale: "tr-TR")
        let en = SoulMateStrings(locale: "en")
        #expect(tr(.pairRequestReceived, "Ayşe") == "Ayşe seninle eşleşmek istiyor.")
        #expect(en(.pairRequestReceived, "Ayşe") == "Ayşe wants to pair with you.")
        #expect(tr[.routeChat] == "Sohbet")
        #expect(SoulMateStrings.fill("%2$@ → %1$@ (100%%)", with: ["a", "b"]) == "b → a (100%)")
        #expect(SoulMateStrings.fill("%@ and %@", with: ["x"]) == "x and ")
        #expect(SoulMateStrings.fill("50% off %", with: []) == "50% off %")
    }

    @Test func countsDistancesAndDatesAreWrittenPerLanguage() {
        let tr = SoulMateStrings(language: .turkish)
        let en = SoulMateStrings(language: .english)
        #expect(en.daysTogether(1) == "1 day together")
        #expect(en.daysTogether(1_234) == "1,234 days together")
        #expect(tr.daysTogether(1_234) == "1.234 gündür birlikte")
        #expect(en.pendingRequests(1) == "1 pending request" && en.pendingRequests(3) == "3 pending requests")
        #expect(en.distance(meters: nil) == "Distance unknown")
        #expect(en.distance(meters: 42) == "Right next to each other")
        #expect(en.distance(meters: 812) == "800 m apart")
        #expect(tr.distance(meters: 812) == "Aranızda 800 m var")
        #expect(en.distance(meters: 960) == "1 km apart")
        #expect(en.distance(meters: 3_000) == "3 km apart")
        #expect(tr.distance(meters: 3_449) == "Aranızda 3,4 km var")
        #expect(en.distance(meters: 349_600) == "350 km apart")
        #expect(en.distance(meters: 2_345_400) == "Far apart: 2,345 km")
        #expect(tr.distance(meters: 2_345_400) == "Çok uzaktasınız: 2.345 km")
        #expect(en.distance(meters: .infinity) == "Distance unknown" && en.distance(meters: -1) == "Distance unknown")
        let istanbul = TimeZone(identifier: "Europe/Istanbul")!
        let valentines = Date(timeIntervalSince1970: 1_707_944_400)  // 2024-02-14T21:00:00Z = 15 Feb 00:00 in Istanbul
        #expect(tr.longDate(valentines, timeZone: istanbul) == "15 Şubat 2024")
        #expect(en.togetherSince(valentines, timeZone: TimeZone(identifier: "UTC")!) == "Together since February 14, 2024")
    }

    @Test func serverCodesAndErrorsHaveMessages() {
        let tr = SoulMateStrings(language: .turkish)
        #expect(tr.message(forServerCode: "pair_code_not_found") == "Bu eşleşme koduna sahip kimse yok. Kodu kontrol edip tekrar dene.")
        #expect(tr.message(forServerCode: "something_new") == tr[.errorUnknown])
        for code in ["pair_code_not_found", "already_paired", "session_locked", "not_paired", "rate_limited"] {
            #expect(SoulMateStrings.serverCodes[code] != nil, "\(code)")
        }
        #expect(tr.message(for: SoulMateKitError.client(.server(status: 429, code: "rate_limited", message: "slow down"))) == tr[.errorRateLimited])
        #expect(tr.message(for: SoulMateKitError.notEmoji) == tr[.errorNotEmoji])
        #expect(tr.message(for: SoulMateKitError.wrongKey) == tr[.errorLocalStore])
        #expect(tr.message(for: KindredClientError.transport("refused")) == tr[.errorNetwork])
    }
}
