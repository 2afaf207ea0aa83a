@testable import StreakKit
import Testing

@Suite struct ReminderEngineTests {
    let engine = ReminderEngine()
    let today = Fixtures.monday
    func plays(_ hours: [Int], daysAgo: Int = 0, completed: Bool = true) -> [GameResult] {
        hours.map { Fixtures.result(day: today.adding(days: -daysAgo), hour: $0, minute: 20, completed: completed) }
    }

    @Test func noHistoryFallsBackToSevenInTheEvening() {
        #expect(engine.suggestion(for: [], today: today) == ReminderTime(hour: 19))
        #expect(engine.suggestion(for: plays([8, 9], completed: false), today: today) == ReminderTime(hour: 19))
    }

    @Test func onePeakSuggestsHalfAnHourBeforeIt() {
        let results = plays([20, 20, 21]) + plays([20], daysAgo: 3) + plays([9], daysAgo: 2)
        #expect(engine.histogram(of: results, today: today)[20] == 3)
        #expect(engine.peakWindowStart(engine.histogram(of: results, today: today)) == 20)
        #expect(engine.suggestion(for: results, today: today) == ReminderTime(hour: 19, minute: 30))
    }

    @Test func twoHoursTogetherBeatOneBusierHour() {
        let results = plays([10, 10, 10, 11, 11, 11, 15, 15, 15, 15, 15])
        #expect(engine.suggestion(for: results, today: today) == ReminderTime(hour: 9, minute: 30))
    }

    @Test func twoEqualPeaksGoToTheEarlierWindow() {
        let results = plays([8, 8, 20, 20])
        // Windows 07–09, 08–10, 19–21 and 20–22 all hold two plays; 08–10 and 20–22 start where the
        // plays are, and 08:00 comes first.
        #expect(engine.peakWindowStart(engine.histogram(of: results, today: today)) == 8)
        #expect(engine.suggestion(for: results, today: today) == ReminderTime(hour: 7, minute: 30))
    }

    @Test(arguments: [
        (5, ReminderTime(hour: 6)), (6, ReminderTime(hour: 6)), (7, ReminderTime(hour: 6, minute: 30)),
        (22, ReminderTime(hour: 21, minute: 30)), (23, ReminderTime(hour: 22)), (0, ReminderTime(hour: 22)),
        (1, ReminderTime(hour: 22)), (2, ReminderTime(hour: 22)), (4, ReminderTime(hour: 6)),
    ])
    func suggestionsAreClampedToSixToTen(_ hour: Int, _ expected: ReminderTime) {
        let results = plays([hour, hour])
        #expect(engine.peakWindowStart(engine.histogram(of: results, today: today)) == hour)
        #expect(engine.suggestion(for: results, today: today) == expected)
    }

    @Test func onlyTheLastThirtyDaysCount() {
        let results = plays([7, 7, 7], daysAgo: 30) + plays([18], daysAgo: 29)
        #expect(engine.histogram(of: results, today: today).reduce(0, +) == 1)
        #expect(engine.suggestion(for: results, today: today) == ReminderTime(hour: 17, minute: 30))
    }

    @Test func recomputedAtMostEveryTwoDays() {
        var state = SmartReminderState()
        let smart = ReminderSettings(smart: true, userTime: ReminderTime(hour: 8))
        let evening = plays([20, 20])
        let first = state.reminderTime(settings: smart, results: evening, today: today)
        #expect(first.recomputed && first.time == ReminderTime(hour: 19, minute: 30))
        let morning = evening + plays([7, 7, 7, 7], daysAgo: -1)
        let nextDay = state.reminderTime(settings: smart, results: morning, today: today.adding(days: 1))
        #expect(!nextDay.recomputed && nextDay.time == first.time)
        let twoDays = state.reminderTime(settings: smart, results: morning, today: today.adding(days: 2))
        #expect(twoDays.recomputed && twoDays.time == ReminderTime(hour: 6, minute: 30))
        #expect(state.computedOn == today.adding(days: 2))
        let clockBack = state.reminderTime(settings: smart, results: morning, today: today)
        #expect(clockBack.recomputed)
    }

    @Test func smartOffUsesThePlayersTime() {
        var state = SmartReminderState()
        let manual = ReminderSettings(smart: false, userTime: ReminderTime(hour: 7, minute: 45))
        let time = state.reminderTime(settings: manual, results: plays([20, 20]), today: today)
        #expect(time == (ReminderTime(hour: 7, minute: 45), false))
        #expect(state.computedOn == nil)
        #expect(ReminderTime(hour: 7, minute: 5).description == "07:05")
    }
}
