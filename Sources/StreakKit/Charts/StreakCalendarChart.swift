/// A GitHub-style calendar of the days played: one square per day, a column per Monday-based week,
/// darker green for more completed results, pale red for a day with results but none completed.
public enum StreakCalendarChart {
    private static let greens = ["#c6e48b", "#7bc96f", "#239a3b", "#196127"]

    /// The SVG document of `results` from `first` to `last` (inclusive) under `title`. Each day is a
    /// `<rect class="day">` with `data-day` (`yyyy-MM-dd`), `data-count` (results that day) and
    /// `data-completed` (completed results that day); nothing is drawn when `last` is before `first`.
    public static func svg(_ results: [GameResult], from first: LocalDay, to last: LocalDay, title: String) -> String {
        var played: [LocalDay: (count: Int, completed: Int)] = [:]
        for result in results where result.day >= first && result.day <= last {
            played[result.day, default: (0, 0)].count += 1
            if result.completed { played[result.day, default: (0, 0)].completed += 1 }
        }
        let cell = 14, gap = 3, left = 40, top = 48
        let weeks = last < first ? 0 : last.weekOrdinal - first.weekOrdinal + 1
        var document = SVGDocument(width: left + max(weeks, 4) * (cell + gap) + 16, height: top + 7 * (cell + gap) + 16, title: title)
        document.text(title, x: 16, y: 28, size: 16, weight: "bold")
        for (row, name) in [(0, "Mon"), (2, "Wed"), (4, "Fri")] {
            document.text(name, x: left - 6, y: top + row * (cell + gap) + cell - 3, size: 9, anchor: "end")
        }
        guard first <= last else { return document.render() }
        for ordinal in first.ordinal...last.ordinal {
            let day = LocalDay(ordinal: ordinal)
            let counts = played[day] ?? (0, 0)
            let fill: String
            if counts.completed > 0 {
                fill = greens[min(counts.completed, greens.count) - 1]
            } else {
                fill = counts.count > 0 ? "#f4b6a6" : "#ebedf0"
            }
            document.rect(
                x: left + (day.weekOrdinal - first.weekOrdinal) * (cell + gap), y: top + (day.isoWeekday - 1) * (cell + gap),
                width: cell, height: cell, fill: fill,
                attributes: ["class": "day", "data-day": day.description, "data-count": String(counts.count), "data-completed": String(counts.completed)],
                tooltip: "\(day): \(counts.completed) of \(counts.count) completed")
        }
        return document.render()
    }
}
