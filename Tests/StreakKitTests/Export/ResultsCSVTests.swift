import Foundation
@testable import StreakKit
import Testing

@Suite struct ResultsCSVTests {
    static let header = "date,game,puzzle,score,maxAttempts,completed"

    @Test func exportWritesTheHeaderAndOneCRLFLinePerResult() throws {
        let results = [
            Fixtures.result(.wordle, day: Fixtures.monday, score: 4, puzzle: 1_234),
            Fixtures.result(.connections, day: Fixtures.monday.adding(days: 1), completed: false, puzzle: 600),
            GameResult(
                share: ParsedShare(
                    game: .spellingBee, puzzle: nil, score: 87, maxScore: 200, completed: true,
                    details: .guessGrid(GuessGrid(hardMode: false, rows: []))),
                recordedAt: Date(timeIntervalSince1970: 0), day: LocalDay(year: 2025, month: 12, day: 31)!,
                minuteOfDay: 0, utcOffsetSeconds: 0, timeZoneIdentifier: "UTC"),
        ]
        #expect(
            ResultsCSV.export(results)
                == "\(Self.header)\r\n2026-03-02,wordle,1234,4,6,true\r\n2026-03-03,connections,600,7,6,false\r\n"
                + "2025-12-31,spelling-bee,,87,200,true\r\n")
        #expect(try ResultsCSV.parse(ResultsCSV.export(results)) == results.map(ResultsCSV.Row.init))
        #expect(ResultsCSV.export([]) == "\(Self.header)\r\n")
        #expect(try ResultsCSV.parse(ResultsCSV.export([])) == [])
    }

    @Test func fieldsAreQuotedOnlyWhenTheyNeedIt() throws {
        #expect(ResultsCSV.quoted("plain") == "plain")
        #expect(ResultsCSV.quoted("") == "")
        #expect(ResultsCSV.quoted("a,b") == "\"a,b\"")
        #expect(ResultsCSV.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(ResultsCSV.quoted("two\r\nlines") == "\"two\r\nlines\"")
        #expect(ResultsCSV.quoted("cr\r") == "\"cr\r\"")
        let tricky = ["a,b", "say \"hi\"", "two\r\nlines", "lf\nonly", "", "🟩🟨"]
        let record = ResultsCSV.record(tricky)
        #expect(record == "\"a,b\",\"say \"\"hi\"\"\",\"two\r\nlines\",\"lf\nonly\",,🟩🟨\r\n")
        #expect(try ResultsCSV.records(record).map(\.fields) == [tricky])
    }

    @Test func exportQuotesAnUnknownGameIdAndImportNamesItsLine() {
        let odd = Fixtures.result(GameID(rawValue: "bad, \"game\""), day: Fixtures.monday, puzzle: 1)
        let text = ResultsCSV.export([Fixtures.result(day: Fixtures.monday, puzzle: 1), odd])
        #expect(text.hasSuffix("\r\n2026-03-02,\"bad, \"\"game\"\"\",1,3,6,true\r\n"))
        #expect(throws: StreakCSVError.unknownGame(line: 3, value: "bad, \"game\"")) { try ResultsCSV.parse(text) }
    }

    @Test func parseAcceptsLFAndCRLFAndQuotedFields() throws {
        let expected = [
            ResultsCSV.Row(date: Fixtures.monday, game: .wordle, puzzle: 1_234, score: 4, max: 6, completed: true),
            ResultsCSV.Row(date: Fixtures.monday, game: .pips, puzzle: nil, score: 95, max: 600, completed: false),
        ]
        let lines = [Self.header, "2026-03-02,wordle,1234,4,6,true", "\"2026-03-02\",\"pips\",\"\",95,600,false"]
        #expect(try ResultsCSV.parse(lines.joined(separator: "\n")) == expected)
        #expect(try ResultsCSV.parse(lines.joined(separator: "\r\n") + "\r\n") == expected)
        #expect(try ResultsCSV.parse(lines.joined(separator: "\n") + "\n\n") == expected)
        #expect(try ResultsCSV.parse("\(lines[0])\r\n\(lines[1])\n\(lines[2])\r\n") == expected)
    }

    @Test(arguments: [
        ("", StreakCSVError.badHeader("")),
        ("date,game,puzzle,score,max,completed\n", .badHeader("date,game,puzzle,score,max,completed")),
        ("\(header)\n2026-03-02,wordle,1,4,6\n", .wrongColumnCount(line: 2, expected: 6, found: 5)),
        ("\(header)\n2026-03-02,wordle,1,4,6,true\n2026-03-02,wordle,1,4,6,true,x\n",
         .wrongColumnCount(line: 3, expected: 6, found: 7)),
        ("\(header)\r\n2026-03-02,chess,1,4,6,true\r\n", .unknownGame(line: 2, value: "chess")),
        ("\(header)\n2026-03-02,wordle,1,four,6,true\n", .notAnInteger(line: 2, field: "score", value: "four")),
        ("\(header)\n2026-03-02,wordle,1,4,6.5,true\n", .notAnInteger(line: 2, field: "maxAttempts", value: "6.5")),
        ("\(header)\n2026-03-02,wordle,#1,4,6,true\n", .notAnInteger(line: 2, field: "puzzle", value: "#1")),
        ("\(header)\n2026-02-30,wordle,1,4,6,true\n", .badDate(line: 2, value: "2026-02-30")),
        ("\(header)\n3/2/2026,wordle,1,4,6,true\n", .badDate(line: 2, value: "3/2/2026")),
        ("\(header)\n2026-03-02,wordle,1,4,6,yes\n", .badBool(line: 2, value: "yes")),
        ("\(header)\n\n2026-03-02,wordle,\"1,4,6,true\n2026-03-02\n", .unterminatedQuote(line: 3)),
        ("\(header)\n2026-03-02,wor\"dle,1,4,6,true\n", .strayQuote(line: 2)),
        ("\(header)\n2026-03-02,\"wordle\"x,1,4,6,true\n", .strayQuote(line: 2)),
        ("\(header)\n2026-03-02,\"word\nle\",1,4,6,true\n2026-03-02,x,1,4,6,true\n", .unknownGame(line: 2, value: "word\nle")),
        ("\(header)\n2026-03-02,\"a\nb\",1,4,6,true\n2026-03-02,wordle,1,4,6,maybe\n", .unknownGame(line: 2, value: "a\nb")),
    ])
    func badInputNamesItsLine(_ text: String, _ expected: StreakCSVError) {
        #expect(throws: expected) { try ResultsCSV.parse(text) }
    }

    @Test func rowsAfterAMultiLineFieldKeepTheirLineNumbers() throws {
        let text = "\(Self.header)\n2026-03-02,wordle,1,4,6,true\n2026-03-02,wordle,1,4,6,\"tr\nue\"\n"
        #expect(throws: StreakCSVError.badBool(line: 3, value: "tr\nue")) { try ResultsCSV.parse(text) }
        let after = "\(Self.header)\n2026-03-02,\"\n\",1,4,6,true\n"
        #expect(throws: StreakCSVError.unknownGame(line: 2, value: "\n")) { try ResultsCSV.parse(after) }
        let later = "\(Self.header)\n\"2026-03-02\",wordle,\"1\",4,6,true\n2026-03-02,wordle,1,4,6,x\n"
        #expect(throws: StreakCSVError.badBool(line: 3, value: "x")) { try ResultsCSV.parse(later) }
        #expect(StreakCSVError.badBool(line: 3, value: "x").line == 3)
        #expect(StreakCSVError.badBool(line: 3, value: "x").code == "bad_bool")
    }
}
