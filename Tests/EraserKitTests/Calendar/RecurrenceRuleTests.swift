import Testing

@testable import EraserKit

@Suite struct RecurrenceRuleTests {
    @Test func readsEveryPartItSupports() throws {
        let rule = try RecurrenceRule.parse(
            "freq=monthly;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU,+2MO,TU;BYMONTHDAY=1,-1;BYMONTH=1,12;BYYEARDAY=-366,100;"
                + "BYSETPOS=-1;BYHOUR=0,23;BYMINUTE=30;BYSECOND=0,60;WKST=su;X-NAME=ignored")
        #expect(rule.frequency == .monthly)
        #expect(rule.interval == 2)
        #expect(rule.count == 10)
        #expect(rule.byDay == [.init(ordinal: 1, weekday: .sunday), .init(ordinal: -1, weekday: .sunday),
                               .init(ordinal: 2, weekday: .monday), .init(ordinal: nil, weekday: .tuesday)])
        #expect(rule.byMonthDay == [1, -1])
        #expect(rule.byMonth == [1, 12])
        #expect(rule.byYearDay == [-366, 100])
        #expect(rule.bySetPos == [-1])
        #expect(rule.byHour == [0, 23])
        #expect(rule.byMinute == [30])
        #expect(rule.bySecond == [0, 59], "a leap second is read as :59")
        #expect(rule.weekStart == .sunday)
        let until = try RecurrenceRule.parse("FREQ=DAILY;UNTIL=20240301T000000Z").until
        #expect(until?.form == .utc)
        #expect(try RecurrenceRule.parse("FREQ=DAILY;UNTIL=20240301").until?.form == .date)
    }

    @Test(arguments: [
        ("FREQ=HOURLY;COUNT=3", "FREQ=HOURLY"),
        ("FREQ=MINUTELY", "FREQ=MINUTELY"),
        ("FREQ=SECONDLY", "FREQ=SECONDLY"),
        ("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "BYWEEKNO"),
        ("FREQ=YEARLY;RSCALE=HEBREW", "RSCALE"),
    ])
    func unsupportedPartsAreRefused(text: String, part: String) {
        #expect(throws: RecurrenceRule.Problem.unsupported(part)) { try RecurrenceRule.parse(text) }
    }

    @Test(arguments: [
        "INTERVAL=2", "FREQ=FORTNIGHTLY", "FREQ=DAILY;INTERVAL=0", "FREQ=DAILY;COUNT=-1", "FREQ=DAILY;COUNT",
        "FREQ=DAILY;UNTIL=tomorrow", "FREQ=WEEKLY;BYDAY=2MO", "FREQ=MONTHLY;BYDAY=0MO", "FREQ=MONTHLY;BYDAY=XX",
        "FREQ=MONTHLY;BYMONTHDAY=0", "FREQ=MONTHLY;BYMONTHDAY=32", "FREQ=YEARLY;BYMONTH=13", "FREQ=DAILY;BYHOUR=24",
        "FREQ=DAILY;WKST=XY", "FREQ=DAILY;FREQ=WEEKLY", "FREQ=MONTHLY;BYDAY=",
    ])
    func invalidRulesAreMalformed(text: String) {
        #expect {
            try RecurrenceRule.parse(text)
        } throws: { error in
            if case .malformed = error as? RecurrenceRule.Problem { return true }
            return false
        }
    }

    @Test func aRuleErrorNamesItsLine() {
        let property = ICSProperty(name: "RRULE", value: "FREQ=HOURLY", line: 12)
        #expect(CalendarFixture.calendarError { _ = try RecurrenceRule.parse(property, file: "a.ics") }
            == .unsupportedRule(file: "a.ics", line: 12, reason: "FREQ=HOURLY"))
        let bad = ICSProperty(name: "RRULE", value: "FREQ=DAILY;COUNT=x", line: 3)
        #expect(CalendarFixture.calendarError { _ = try RecurrenceRule.parse(bad, file: "a.ics") }
            == .malformed(file: "a.ics", line: 3, reason: "RRULE: COUNT=x is out of range"))
    }
}
