import Foundation
import Testing

@testable import EraserKit

/// The recurrence examples of RFC 5545 §3.8.5.3, each with its answer from the RFC, on its
/// America/New_York wall clock (DTSTART;TZID=America/New_York, as the RFC writes them).
@Suite struct RFC5545ExampleTests {
    /// The starts of the first `first` occurrences (all when `nil`), as `YYYYMMDDTHHMMSS`.
    private func starts(_ start: String, _ lines: [String], first: Int? = nil) throws -> [String] {
        let bytes = CalendarFixture.calendar(CalendarFixture.event("rfc", ["DTSTART;TZID=America/New_York:\(start)"] + lines))
        let calendars = try CalendarFixture.store(["rfc.ics": bytes])
        let all = try calendars.store.occurrences(
            in: DateInterval(start: CalendarFixture.utc(1996, 1, 1), end: CalendarFixture.utc(2012, 1, 1)))
        return all.prefix(first ?? all.count).map { CalendarFixture.wall($0.start, "America/New_York") }
    }

    private func days(_ dates: [String], at time: String = "090000") -> [String] { dates.map { "\($0)T\(time)" } }

    @Test func dailyForTenOccurrences() throws {
        #expect(try starts("19970902T090000", ["RRULE:FREQ=DAILY;COUNT=10"])
            == days(["19970902", "19970903", "19970904", "19970905", "19970906", "19970907", "19970908", "19970909",
                     "19970910", "19970911"]))
    }

    @Test func dailyUntilAndEveryTenDays() throws {
        let until = try starts("19970902T090000", ["RRULE:FREQ=DAILY;UNTIL=19971224T000000Z"])
        #expect(until.count == 113)
        #expect(until.last == "19971223T090000")
        #expect(try starts("19970902T090000", ["RRULE:FREQ=DAILY;INTERVAL=10;COUNT=5"])
            == days(["19970902", "19970912", "19970922", "19971002", "19971012"]))
    }

    @Test func everyDayInJanuaryForThreeYears() throws {
        for rule in ["RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA",
                     "RRULE:FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1"] {
            let all = try starts("19980101T090000", [rule])
            #expect(all.count == 93, "\(rule)")
            #expect(all.first == "19980101T090000")
            #expect(all.last == "20000131T090000")
            #expect(all.allSatisfy { $0.dropFirst(4).hasPrefix("01") })
        }
    }

    @Test func weeklyAcrossTheAutumnChangeKeepsTheWallClock() throws {
        #expect(try starts("19970902T090000", ["RRULE:FREQ=WEEKLY;COUNT=10"])
            == days(["19970902", "19970909", "19970916", "19970923", "19970930", "19971007", "19971014", "19971021",
                     "19971028", "19971104"]))
    }

    @Test func everyOtherWeekOnMondayWednesdayAndFriday() throws {
        #expect(try starts("19970901T090000", ["RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR"])
            == days(["19970901", "19970903", "19970905", "19970915", "19970917", "19970919", "19970929", "19971001",
                     "19971003", "19971013", "19971015", "19971017", "19971027", "19971029", "19971031", "19971110",
                     "19971112", "19971114", "19971124", "19971126", "19971128", "19971208", "19971210", "19971212",
                     "19971222"]))
    }

    @Test func weekStartChangesWhichDaysAnIntervalTakes() throws {
        #expect(try starts("19970805T090000", ["RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO"])
            == days(["19970805", "19970810", "19970819", "19970824"]))
        #expect(try starts("19970805T090000", ["RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU"])
            == days(["19970805", "19970817", "19970819", "19970831"]))
    }

    @Test func monthlyByOrdinalWeekdays() throws {
        #expect(try starts("19970905T090000", ["RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR"])
            == days(["19970905", "19971003", "19971107", "19971205", "19980102", "19980206", "19980306", "19980403",
                     "19980501", "19980605"]))
        #expect(try starts("19970907T090000", ["RRULE:FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU"])
            == days(["19970907", "19970928", "19971102", "19971130", "19980104", "19980125", "19980301", "19980329",
                     "19980503", "19980531"]))
        #expect(try starts("19970922T090000", ["RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-2MO"])
            == days(["19970922", "19971020", "19971117", "19971222", "19980119", "19980216"]))
    }

    @Test func monthlyByMonthDay() throws {
        #expect(try starts("19970928T090000", ["RRULE:FREQ=MONTHLY;BYMONTHDAY=-3"], first: 6)
            == days(["19970928", "19971029", "19971128", "19971229", "19980129", "19980226"]))
        #expect(try starts("19970902T090000", ["RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15"])
            == days(["19970902", "19970915", "19971002", "19971015", "19971102", "19971115", "19971202", "19971215",
                     "19980102", "19980115"]))
        #expect(try starts("19970930T090000", ["RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1"])
            == days(["19970930", "19971001", "19971031", "19971101", "19971130", "19971201", "19971231", "19980101",
                     "19980131", "19980201"]))
        // An invalid date (30 February) is skipped, not moved.
        #expect(try starts("20070115T090000", ["RRULE:FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5"])
            == days(["20070115", "20070130", "20070215", "20070315", "20070330"]))
    }

    @Test func fridayThe13thWithDTSTARTExcluded() throws {
        #expect(try starts("19970902T090000", ["EXDATE;TZID=America/New_York:19970902T090000",
                                               "RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13"], first: 5)
            == days(["19980213", "19980313", "19981113", "19990813", "20001013"]))
    }

    @Test func theFirstSaturdayAfterTheFirstSunday() throws {
        #expect(try starts("19970913T090000", ["RRULE:FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13"], first: 10)
            == days(["19970913", "19971011", "19971108", "19971213", "19980110", "19980207", "19980307", "19980411",
                     "19980509", "19980613"]))
    }

    @Test func setPositions() throws {
        #expect(try starts("19970904T090000", ["RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3"])
            == days(["19970904", "19971007", "19971106"]))
        #expect(try starts("19970929T090000", ["RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2"], first: 7)
            == days(["19970929", "19971030", "19971127", "19971230", "19980129", "19980226", "19980330"]))
    }

    @Test func yearlyRules() throws {
        #expect(try starts("19970610T090000", ["RRULE:FREQ=YEARLY;COUNT=10;BYMONTH=6,7"])
            == days(["19970610", "19970710", "19980610", "19980710", "19990610", "19990710", "20000610", "20000710",
                     "20010610", "20010710"]))
        #expect(try starts("19970310T090000", ["RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3"])
            == days(["19970310", "19990110", "19990210", "19990310", "20010110", "20010210", "20010310", "20030110",
                     "20030210", "20030310"]))
        #expect(try starts("19970101T090000", ["RRULE:FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200"])
            == days(["19970101", "19970410", "19970719", "20000101", "20000409", "20000718", "20030101", "20030410",
                     "20030719", "20060101"]))
        #expect(try starts("19970519T090000", ["RRULE:FREQ=YEARLY;BYDAY=20MO"], first: 3)
            == days(["19970519", "19980518", "19990517"]))
        #expect(try starts("19970313T090000", ["RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=TH"], first: 11)
            == days(["19970313", "19970320", "19970327", "19980305", "19980312", "19980319", "19980326", "19990304",
                     "19990311", "19990318", "19990325"]))
        #expect(try starts("19970605T090000", ["RRULE:FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8"], first: 13)
            == days(["19970605", "19970612", "19970619", "19970626", "19970703", "19970710", "19970717", "19970724",
                     "19970731", "19970807", "19970814", "19970821", "19970828"]))
        #expect(try starts("19961105T090000", ["RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8"], first: 3)
            == days(["19961105", "20001107", "20041102"]))
    }

    @Test func byHourAndByMinuteExpandTheDay() throws {
        #expect(try starts("19970105T083000", ["RRULE:FREQ=YEARLY;INTERVAL=2;BYMONTH=1;BYDAY=SU;BYHOUR=8,9;BYMINUTE=30"], first: 8)
            == ["19970105T083000", "19970105T093000", "19970112T083000", "19970112T093000", "19970119T083000",
                "19970119T093000", "19970126T083000", "19970126T093000"])
    }

    @Test func aWeekNumberRuleIsUnsupported() throws {
        let error = CalendarFixture.calendarError { _ = try starts("19970512T090000", ["RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"]) }
        #expect(error == .unsupportedRule(file: "rfc.ics", line: 7, reason: "BYWEEKNO"))
        #expect(EraserKitError.calendar(error!).code == "calendar.unsupported_rule")
    }
}
