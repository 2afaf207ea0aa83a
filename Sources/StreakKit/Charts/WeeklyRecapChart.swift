/// A week's results per day as a vertical bar chart, Monday to Sunday, with the recap's figures.
public enum WeeklyRecapChart {
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The SVG document of `recap` under `title`. Each of the seven bars is a `<rect class="bar">`
    /// with `data-day` (`yyyy-MM-dd`) and `data-count`.
    public static func svg(_ recap: WeeklyRecap, title: String) -> String {
        let left = 40, top = 64, plotHeight = 200, column = 56, barWidth = 36
        var document = SVGDocument(width: left + 7 * column + 24, height: top + plotHeight + 40, title: title)
        document.text(title, x: 16, y: 28, size: 16, weight: "bold")
        let rate = Int((recap.completionRate * 100).rounded())
        let consistency = Int((recap.consistency * 100).rounded())
        document.text(
            "\(recap.week): \(recap.played) played, \(recap.completed) completed (\(rate) %), \(recap.daysPlayed)/7 days (\(consistency) %), longest streak \(recap.longestStreak)",
            x: 16, y: 48, size: 11)
        let largest = max(1, recap.playedPerDay.max() ?? 0)
        let days = recap.week.days
        for (index, count) in recap.playedPerDay.enumerated() where index < days.count {
            let height = count == 0 ? 0 : max(3, count * plotHeight / largest)
            let x = left + index * column
            document.rect(
                x: x, y: top + plotHeight - height, width: barWidth, height: height, fill: "#4a90d9",
                attributes: ["class": "bar", "data-day": days[index].description, "data-count": String(count)],
                tooltip: "\(days[index]): \(count)")
            document.text(String(count), x: x + barWidth / 2, y: top + plotHeight - height - 4, size: 11, anchor: "middle")
            document.text(dayNames[index], x: x + barWidth / 2, y: top + plotHeight + 18, anchor: "middle")
        }
        return document.render()
    }
}
