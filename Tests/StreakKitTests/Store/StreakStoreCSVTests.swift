import Foundation
import StreakKit
import Testing

/// Import and export of results as CSV through the store.
@Suite struct StreakStoreCSVTests {
    let day = Fixtures.monday

    @Test func anExportImportsIntoAnotherStoreAsTheSameRows() throws {
        let source = try StreakStore.inMemory()
        let results = [
            Fixtures.result(day: day, score: 3),
            StoreFixtures.connections(day: day, score: 5),
            Fixtures.result(day: day.adding(days: 1), completed: false),
        ]
        _ = try source.record(contentsOf: results, now: Fixtures.instant(day, hour: 13))
        let csv = try source.exportCSV()
        #expect(csv.hasPrefix("date,game,puzzle,score,maxAttempts,completed\r\n"))

        let target = try StreakStore.inMemory()
        var progress: [(Int, Int)] = []
        let outcome = try target.importCSV(csv, timeZone: Fixtures.newYork, now: Fixtures.instant(day, hour: 20)) { progress.append(($0, $1)) }
        #expect(outcome.inserted == 3 && outcome.duplicates == 0)
        #expect(progress.map(\.0) == [3] && progress.map(\.1) == [3])
        #expect(try target.exportCSV() == csv)
        let imported = try target.allResults()
        let original = try source.allResults()
        #expect(imported.map(\.id) == original.map(\.id))
        #expect(imported[0].timeZoneIdentifier == "America/New_York")
        #expect(imported[0].minuteOfDay == 720 && imported[0].utcOffsetSeconds == -5 * 3_600)
        #expect(LocalDay(imported[0].recordedAt, in: Fixtures.newYork) == day)

        let again = try target.importCSV(csv, timeZone: Fixtures.newYork)
        #expect(again.inserted == 0 && again.duplicates == 3)
    }

    @Test func aRowItsGameCannotHaveIsRefusedByLineAndNothingIsStored() throws {
        let store = try StreakStore.inMemory()
        let csv = "date,game,puzzle,score,maxAttempts,completed\r\n2026-03-02,wordle,1400,3,6,true\r\n2026-03-03,wordle,1401,9,6,true\r\n"
        #expect(throws: StreakStoreError.invalidImportRow(
            line: 3, reason: "wordle 2026-03-03: score 9, max 6 is not a result this game can have")) {
            try store.importCSV(csv, timeZone: Fixtures.utc)
        }
        #expect(try store.resultCount() == 0)
        #expect(throws: StreakStoreError.csv(.badDate(line: 2, value: "2026-13-02"))) {
            try store.importCSV("date,game,puzzle,score,maxAttempts,completed\n2026-13-02,wordle,1,3,6,true\n", timeZone: Fixtures.utc)
        }
    }

    @Test func largeImportsReportProgressEveryThousandRows() throws {
        var csv = "date,game,puzzle,score,maxAttempts,completed\r\n"
        for index in 0..<2_500 { csv += "\(day.adding(days: -index)),wordle,\(1_600 - index % 1_500),4,6,true\r\n" }
        let store = try StreakStore.inMemory()
        var reports: [Int] = []
        let outcome = try store.importCSV(csv, timeZone: Fixtures.utc, now: Fixtures.instant(day, hour: 12)) { done, total in
            #expect(total == 2_500)
            reports.append(done)
        }
        #expect(reports == [1_000, 2_000, 2_500])
        // Puzzles repeat every 1,500 rows: a puzzle seen on an earlier row's day is a duplicate.
        #expect(outcome.inserted == 1_500 && outcome.duplicates == 1_000)
        #expect(try store.pendingUploads(kind: .score, limit: 10_000).count == StreakStore.scorePublishWindowDays + 1)
    }
}
