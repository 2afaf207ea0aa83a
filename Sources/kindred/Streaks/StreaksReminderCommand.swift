import ArgumentParser
import Foundation
import StreakKit

/// `kindred streaks reminder [--smart on|off] [--at HH:MM] [--now ISO8601]`.
struct StreaksReminderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminder",
        abstract: "The daily reminder's time: smart (from when you usually play) or your own.",
        discussion: """
            Smart mode suggests 30 minutes before your busiest 2-hour window of the last 30 days \
            (06:00–22:00, 19:00 without data), recomputed at most every 2 days; the kept suggestion is \
            stored in the profile. --at sets your own time and, unless --smart on is given too, turns \
            smart mode off. --now fixes "today" for reproducible output.
            """)

    @OptionGroup var options: StreaksOptions
    @Option(help: "Smart mode: on or off.") var smart: String?
    @Option(help: "Your own reminder time, HH:MM (24-hour).") var at: String?
    @Option(help: "Take today at this instant, ISO 8601 (default: now).") var now: String?

    func validate() throws {
        if let smart, !["on", "off"].contains(smart) { throw ValidationError("--smart must be on or off") }
        if let at, Self.time(at) == nil { throw ValidationError("--at: \"\(at)\" is not a time HH:MM (00:00–23:59)") }
    }

    func run() async throws {
        let instant = try StreaksAddCommand.instant(now)
        let store = try options.store()
        try await options.run {
            var settings = try store.settings()
            if let at, let time = Self.time(at) {
                settings.reminder.userTime = time
                if smart == nil { settings.reminder.smart = false }
            }
            if let smart { settings.reminder.smart = smart == "on" }
            let zone = try settings.timeZone()
            let today = LocalDay(instant, in: zone)
            let results = try store.allResults()
            var state = settings.smartReminder
            let (time, recomputed) = state.reminderTime(settings: settings.reminder, results: results, today: today)
            settings.smartReminder = state
            try store.setSettings(settings)
            let engine = ReminderEngine()
            let histogram = engine.histogram(of: results, today: today)
            let source = !settings.reminder.smart ? "user" : (histogram.allSatisfy { $0 == 0 } ? "default" : "smart")
            var lines = ["reminder at \(time) (\(source == "user" ? "your time" : source == "default" ? "smart, no plays yet: the default" : "smart"))"]
            if settings.reminder.smart {
                lines.append("computed on \(state.computedOn.map(\.description) ?? "—")\(recomputed ? " (just now)" : "")")
            }
            options.output(lines.joined(separator: "\n"), json: [
                "time": time.description, "smart": settings.reminder.smart, "source": source,
                "userTime": settings.reminder.userTime.description, "suggested": orNull(state.suggested?.description),
                "computedOn": orNull(state.computedOn?.description), "recomputed": recomputed, "today": today.description,
                "histogram": histogram,
            ])
        }
    }

    /// `HH:MM` as a time, or nil.
    static func time(_ text: String) -> ReminderTime? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return ReminderTime(hour: hour, minute: minute)
    }
}
