/// A standalone SVG 1.1 document built from elements: no scripts, no external resources, a `<title>`
/// first, so any browser or image viewer opens it as it is.
struct SVGDocument {
    /// Width in user units (pixels).
    let width: Int
    /// Height in user units (pixels).
    let height: Int
    /// The chart's title (`<title>`, and the heading drawn on it).
    let title: String
    /// The elements drawn, in order.
    private(set) var elements: [String] = []

    /// An empty document of this size and title.
    init(width: Int, height: Int, title: String) {
        self.width = width
        self.height = height
        self.title = title
    }

    /// Adds a rectangle; `attributes` (`class`, `data-…`) are written after the geometry, in the order given.
    mutating func rect(x: Int, y: Int, width: Int, height: Int, fill: String, attributes: KeyValuePairs<String, String> = [:], tooltip: String? = nil) {
        let extra = attributes.map { " \($0.key)=\"\(Self.escape($0.value))\"" }.joined()
        let geometry = "x=\"\(x)\" y=\"\(y)\" width=\"\(max(0, width))\" height=\"\(max(0, height))\" fill=\"\(Self.escape(fill))\""
        if let tooltip {
            elements.append("<rect \(geometry)\(extra)><title>\(Self.escape(tooltip))</title></rect>")
        } else {
            elements.append("<rect \(geometry)\(extra)/>")
        }
    }

    /// Adds a line of text; `anchor` is `start`, `middle` or `end`.
    mutating func text(_ content: String, x: Int, y: Int, size: Int = 12, anchor: String = "start", weight: String = "normal") {
        elements.append(
            "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" font-weight=\"\(weight)\" text-anchor=\"\(anchor)\">\(Self.escape(content))</text>")
    }

    /// The document's text.
    func render() -> String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" font-family=\"Helvetica, Arial, sans-serif\">",
            "<title>\(Self.escape(title))</title>",
            "<rect class=\"background\" x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#ffffff\"/>",
        ]
        lines += elements
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with XML's special characters escaped, and characters XML 1.0 forbids dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
