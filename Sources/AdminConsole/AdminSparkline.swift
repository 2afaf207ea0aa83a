import Foundation

/// Numbers and small charts as the console shows them: thousands separators, and a day series
/// drawn as the points of an inline SVG polyline (rendered on the server, no script).
enum AdminFormat {
    /// `1234567` → `1,234,567` (the same in every locale the operator's browser may use).
    static func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// The chart's width and height in SVG units.
    static let chartWidth = 120, chartHeight = 28

    /// The `points` of a polyline drawing `series` in a `chartWidth`×`chartHeight` box (the
    /// highest value touches the top, zero the bottom, with a 2-unit margin); empty for no values.
    static func sparkline(_ series: [Int]) -> String {
        guard !series.isEmpty else { return "" }
        let top = max(series.max() ?? 0, 1)
        let step = series.count > 1 ? Double(chartWidth) / Double(series.count - 1) : 0
        let usable = Double(chartHeight - 4)
        return series.enumerated().map { index, value in
            let x = Double(index) * step
            let y = Double(chartHeight - 2) - usable * Double(max(value, 0)) / Double(top)
            return "\(format(x)),\(format(y))"
        }.joined(separator: " ")
    }

    /// A series' summary for screen readers: "last 30 days: lowest 0, highest 12, today 3"
    /// (with `unit: .minutes`, "last 60 minutes: …, this minute 3").
    static func seriesLabel(_ series: [Int], unit: SeriesUnit = .days) -> String {
        let (units, current) = unit == .days ? ("days", "today") : ("minutes", "this minute")
        return "last \(series.count) \(units): lowest \(number(series.min() ?? 0)), highest \(number(series.max() ?? 0)), \(current) \(number(series.last ?? 0))"
    }

    /// What one point of a series counts.
    enum SeriesUnit: Sendable {
        /// A UTC day.
        case days
        /// A wall-clock minute.
        case minutes
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// A duration in words: `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`.
    static func age(milliseconds: Int64) -> String {
        let seconds = max(milliseconds, 0) / 1000
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        if seconds < 86_400 { return "\(seconds / 3600) h \(seconds % 3600 / 60) min" }
        return "\(seconds / 86_400) d \(seconds % 86_400 / 3600) h"
    }
}
