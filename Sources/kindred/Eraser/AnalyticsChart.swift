import EraserServer
import Foundation

/// A stacked bar chart of Ex-Eraser's analytics counts: one bar per UTC day of the range (days
/// without events included, as empty bars), one colour per event, a legend and a y axis. Plain
/// SVG 1.1, no script, no external resources: it opens in any browser.
struct AnalyticsChart {
    var counts: [EraserAnalyticsReport.DayCount]
    var range: DateInterval

    /// The events in stacking order, with their colours (distinguishable in greyscale too).
    static let events: [(name: String, colour: String)] = [
        ("scan_started", "#4e79a7"), ("scan_completed", "#a0cbe8"), ("vault_action", "#59a14f"),
        ("delete_action", "#e15759"), ("cooling_off_reversal", "#f28e2b"),
    ]

    /// The days of the range, `YYYY-MM-DD`.
    var days: [String] {
        var days: [String] = []
        var day = range.start
        while day < range.end {
            days.append(EraserAnalyticsReport.utcDay(Int64(day.timeIntervalSince1970)))
            day.addTimeInterval(86_400)
        }
        return days
    }

    /// The chart as an SVG document.
    func svg() -> String {
        let days = days
        var byDay: [String: [String: Int]] = [:]
        for count in counts { byDay[count.day, default: [:]][count.event, default: 0] += count.count }
        let highest = max(1, days.map { byDay[$0]?.values.reduce(0, +) ?? 0 }.max() ?? 1)
        let scale = Self.niceCeiling(highest)
        let (left, top, plotWidth, plotHeight) = (60.0, 40.0, max(300.0, Double(days.count) * 14), 240.0)
        let width = left + plotWidth + 200
        let height = top + plotHeight + 70
        let barWidth = plotWidth / Double(max(1, days.count))
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="11">
            <title>Ex-Eraser analytics events per day, \(days.first ?? "") to \(days.last ?? "")</title>
            <text x="\(Int(left))" y="20" font-size="14">Ex-Eraser events per day (UTC)</text>

            """
        for step in 0...4 {
            let value = scale * step / 4
            let y = top + plotHeight - plotHeight * Double(value) / Double(scale)
            svg += ##"<line x1="\##(Int(left))" x2="\##(Int(left + plotWidth))" y1="\##(Self.f(y))" y2="\##(Self.f(y))" stroke="#ddd"/>"##
            svg += ##"<text x="\##(Int(left) - 6)" y="\##(Self.f(y + 4))" text-anchor="end">\##(value)</text>"## + "\n"
        }
        for (index, day) in days.enumerated() {
            var y = top + plotHeight
            let x = left + Double(index) * barWidth
            for event in Self.events {
                let count = byDay[day]?[event.name] ?? 0
                guard count > 0 else { continue }
                let h = plotHeight * Double(count) / Double(scale)
                y -= h
                svg += ##"<rect x="\##(Self.f(x + 1))" y="\##(Self.f(y))" width="\##(Self.f(max(1, barWidth - 2)))" height="\##(Self.f(h))" fill="\##(event.colour)"><title>\##(day) \##(event.name): \##(count)</title></rect>"## + "\n"
            }
            if index % max(1, days.count / 8) == 0 {
                svg += ##"<text x="\##(Self.f(x + barWidth / 2))" y="\##(Int(top + plotHeight + 16))" text-anchor="middle">\##(day.dropFirst(5))</text>"## + "\n"
            }
        }
        for (index, event) in Self.events.enumerated() {
            let y = top + Double(index) * 20
            let total = counts.filter { $0.event == event.name }.reduce(0) { $0 + $1.count }
            svg += ##"<rect x="\##(Int(left + plotWidth + 20))" y="\##(Self.f(y))" width="12" height="12" fill="\##(event.colour)"/>"##
            svg += ##"<text x="\##(Int(left + plotWidth + 38))" y="\##(Self.f(y + 10))">\##(event.name) (\##(total))</text>"## + "\n"
        }
        svg += "</svg>\n"
        return svg
    }

    /// The smallest of 1, 2, 5 × 10ⁿ at or above `value`, so the axis has round steps.
    static func niceCeiling(_ value: Int) -> Int {
        var magnitude = 1
        while true {
            for step in [1, 2, 4, 5, 10] where step * magnitude >= value { return step * magnitude }
            magnitude *= 10
        }
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
}
