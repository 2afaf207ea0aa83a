@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Testing

/// Parsing and day matching of cron expressions (UTC, so no DST is involved).
@Suite struct CronScheduleTests {
    let utc = TimeZone.gmt

    func next(_ expression: String, after: String) throws -> Date? {
        try CronSchedule(expression).nextRun(after: try Date(after, strategy: .iso8601), in: utc)
    }

    @Test func fieldsListsRangesStepsAndNames() throws {
        #expect(try next("*/15 * * * *", after: "2026-03-08T10:07:30Z") == (try Date("2026-03-08T10:15:00Z", strategy: .iso8601)))
        #expect(try next("*/15 * * * *", after: "2026-03-08T10:15:00Z") == (try Date("2026-03-08T10:30:00Z", strategy: .iso8601)))
        #expect(try next("5,35 9-17/4 * * *", after: "2026-03-08T09:35:00Z") == (try Date("2026-03-08T13:05:00Z", strategy: .iso8601)))
        #expect(try next("0 12 * JAN-mar Mon-Fri", after: "2026-03-31T12:00:00Z") == (try Date("2027-01-01T12:00:00Z", strategy: .iso8601)))
        #expect(try next("0 0 * * 7", after: "2026-03-02T00:00:00Z") == (try Date("2026-03-08T00:00:00Z", strategy: .iso8601)))
        #expect(try next("10/20 * * * *", after: "2026-03-08T10:31:00Z") == (try Date("2026-03-08T10:50:00Z", strategy: .iso8601)))
        #expect(try next("0 0 29 2 *", after: "2026-03-01T00:00:00Z") == (try Date("2028-02-29T00:00:00Z", strategy: .iso8601)))
    }

    @Test func macros() throws {
        #expect(try next("@hourly", after: "2026-03-08T10:00:00Z") == (try Date("2026-03-08T11:00:00Z", strategy: .iso8601)))
        #expect(try next("@daily", after: "2026-03-08T10:00:00Z") == (try Date("2026-03-09T00:00:00Z", strategy: .iso8601)))
        #expect(try next("@midnight", after: "2026-03-08T10:00:00Z") == (try Date("2026-03-09T00:00:00Z", strategy: .iso8601)))
        #expect(try next("@weekly", after: "2026-03-08T10:00:00Z") == (try Date("2026-03-15T00:00:00Z", strategy: .iso8601)))
        #expect(try next("@monthly", after: "2026-03-08T10:00:00Z") == (try Date("2026-04-01T00:00:00Z", strategy: .iso8601)))
        #expect(try next("@yearly", after: "2026-03-08T10:00:00Z") == (try Date("2027-01-01T00:00:00Z", strategy: .iso8601)))
        #expect(try CronSchedule("@annually").description == "@annually")
    }

    /// Vixie cron: both day fields restricted means either; a `*`-led day field means both.
    @Test func dayOfMonthOrDayOfWeek() throws {
        // The 1st or any Monday: Monday 2 March is taken, then Monday 9 March.
        #expect(try next("0 0 1 * mon", after: "2026-03-02T00:00:00Z") == (try Date("2026-03-09T00:00:00Z", strategy: .iso8601)))
        #expect(try next("0 0 1 * mon", after: "2026-03-30T00:00:00Z") == (try Date("2026-04-01T00:00:00Z", strategy: .iso8601)))
        // `*/2` starts with `*`: odd days AND Mondays (2 March is even; 9 March is odd).
        #expect(try next("0 0 */2 * mon", after: "2026-03-01T00:00:00Z") == (try Date("2026-03-09T00:00:00Z", strategy: .iso8601)))
        // February 30th never exists, but with a weekday it fires on that weekday.
        #expect(try next("0 0 30 2 mon", after: "2026-02-01T00:00:00Z") == (try Date("2026-02-02T00:00:00Z", strategy: .iso8601)))
    }

    @Test(arguments: [
        ("* * * *", CronParseError.wrongFieldCount(4)),
        ("* * * * * *", .wrongFieldCount(6)),
        ("", .wrongFieldCount(0)),
        ("@reboot", .unknownMacro("@reboot")),
        ("60 * * * *", .outOfRange(field: .minute, value: 60)),
        ("* 24 * * *", .outOfRange(field: .hour, value: 24)),
        ("* * 0 * *", .outOfRange(field: .dayOfMonth, value: 0)),
        ("* * * 13 *", .outOfRange(field: .month, value: 13)),
        ("* * * * 8", .outOfRange(field: .dayOfWeek, value: 8)),
        ("5-1 * * * *", .reversedRange(field: .minute, text: "5-1")),
        ("*/0 * * * *", .invalidStep(field: .minute, text: "*/0")),
        ("*/x * * * *", .invalidStep(field: .minute, text: "*/x")),
        ("1/2/3 * * * *", .invalidStep(field: .minute, text: "1/2/3")),
        ("1,,2 * * * *", .invalidValue(field: .minute, text: "1,,2")),
        ("* * * foo *", .invalidValue(field: .month, text: "foo")),
        ("* * * * -1", .invalidValue(field: .dayOfWeek, text: "")),
        ("0 0 30 2 *", .neverFires("0 0 30 2 *")),
        ("0 0 31 4,6,9,11 *", .neverFires("0 0 31 4,6,9,11 *")),
    ])
    func refusesInvalidExpressions(expression: String, expected: CronParseError) {
        #expect(throws: expected) { try CronSchedule(expression) }
    }

    @Test func errorMessagesNameTheField() {
        #expect(CronParseError.outOfRange(field: .minute, value: 60).description == "minute: 60 is outside 0–59")
        #expect(CronParseError.wrongFieldCount(4).description
            == "a cron expression has 5 fields (minute hour day-of-month month day-of-week), not 4")
        #expect(CronParseError.invalidValue(field: .dayOfWeek, text: "funday").description
            == "day of week: \"funday\" is not a number, name, range or step")
    }
}
