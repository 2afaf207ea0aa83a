/// A guess distribution as a horizontal bar chart, one bar per number of guesses and one for the
/// failures (`X`), as the games show it after a win.
public enum GuessDistributionChart {
    /// The SVG document of `distribution` under `title`. Each bar is a `<rect class="bar">` with
    /// `data-guesses` (`1`…, or `X`) and `data-count`.
    public static func svg(_ distribution: GuessDistribution, title: String) -> String {
        let rows = distribution.counts.enumerated().map { (label: String($0.offset + 1), count: $0.element) }
            + [(label: "X", count: distribution.failed)]
        let rowHeight = 28, top = 48, left = 40, barSpace = 360
        var document = SVGDocument(width: left + barSpace + 60, height: top + rows.count * rowHeight + 16, title: title)
        document.text(title, x: 16, y: 28, size: 16, weight: "bold")
        let largest = max(1, rows.map(\.count).max() ?? 0)
        for (index, row) in rows.enumerated() {
            let y = top + index * rowHeight
            let width = row.count == 0 ? 0 : max(4, row.count * barSpace / largest)
            document.text(row.label, x: left - 10, y: y + 17, anchor: "end", weight: "bold")
            document.rect(
                x: left, y: y, width: width, height: rowHeight - 6, fill: row.label == "X" ? "#c0392b" : "#6aaa64",
                attributes: ["class": "bar", "data-guesses": row.label, "data-count": String(row.count)],
                tooltip: "\(row.label): \(row.count)")
            document.text(String(row.count), x: left + width + 6, y: y + 17)
        }
        return document.render()
    }
}
