@testable import StreakKit
import Testing

@Suite struct LinkedInTimedParserTests {
    let catalog = Fixtures.catalog

    @Test func timeOnTheNextLine() throws {
        let share = try catalog.parse("Queens #123\n2:45 👑\nlnkd.in/queens.")
        #expect(share.details == .timed(TimedDetails(seconds: 165, flawless: false)))
    }

    @Test func timeAndFlawlessOnTheHeaderLine() throws {
        let share = try catalog.parse("Tango #293 | 0:47 and flawless\nlnkd.in/tango.")
        #expect(share.details == .timed(TimedDetails(seconds: 47, flawless: true)))
    }

    @Test(arguments: [
        ("Zip #150 | 0:23 🏁\nWith 2 backtracks 🛑\nlnkd.in/zip.", 23, 2 as Int?, false),
        ("Zip #201\n0:23 🏁\nWith 1 backtrack 🛑\nlnkd.in/zip.", 23, 1, false),
        ("Zip #335 | 0:19 🏁 With 4 backtracks 🛑 lnkd.in/zip.", 19, 4, false),
        ("Zip #335 | 0:09 and flawless 🏁 With no backtracks 🟢 lnkd.in/zip.", 9, 0, true),
        ("Zip #336\n0:31 🏁\nlnkd.in/zip.", 31, nil, false),
    ])
    func zipBacktracks(_ text: String, _ seconds: Int, _ backtracks: Int?, _ flawless: Bool) throws {
        let share = try catalog.parse(text)
        #expect(share.details == .zip(ZipDetails(seconds: seconds, backtracks: backtracks, flawless: flawless)))
    }

    @Test func aDailyPostOfSeveralGamesParsesEachOne() throws {
        let text = """
            Queens #386 | 0:11 First 👑s: 🟨 🟩 ⬜
            lnkd.in/queens.

            Crossclimb #398 | 0:40 and flawless
            Fill order: 1️⃣ 2️⃣ 3️⃣ 4️⃣ 5️⃣ ⬆️ ⬇️ 🪜
            lnkd.in/crossclimb.

            Pinpoint #560
            🤔 🤔 🤔 🤔 🤔
            lnkd.in/pinpoint.

            Mini Sudoku #142 | 0:39 and flawless ✏️
            """
        let shares = try catalog.parseAll(text)
        #expect(shares.map(\.game) == [.queens, .crossclimb, .pinpoint, .miniSudoku])
        #expect(shares.map(\.score) == [11, 40, 6, 39])
        #expect(try catalog.parse(text).game == .queens)
    }

    @Test(arguments: [
        "Queens #123\nlnkd.in/queens.",  // no time
        "Queens #123\n2:75 👑",
        "Tango #120 | soon",
        "Zip #150 | 0:00 🏁",  // zero seconds
    ])
    func withoutAUsableTimeItIsRefused(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }

    @Test(arguments: ["Queens 123\n2:45", "The Queens #1 fan", "Zipper #150 | 0:23", "queens are great"])
    func chatIsNotAHeader(_ text: String) {
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse(text) }
    }
}
