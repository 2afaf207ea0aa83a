import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses an SVG document with Foundation's XMLParser: whether it is well-formed, its elements with
/// their attributes, and the root `<title>`'s text.
final class SVGInspector: NSObject, XMLParserDelegate {
    /// An element and its attributes, in document order.
    struct Element {
        let name: String
        let attributes: [String: String]
    }

    private(set) var elements: [Element] = []
    private(set) var rootTitle: String?
    private(set) var wellFormed = false
    private var depth = 0
    private var titleText: String?

    init(_ svg: String) {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        wellFormed = parser.parse()
    }

    /// The `<rect>`s whose `class` is `className`.
    func rects(class className: String) -> [[String: String]] {
        elements.filter { $0.name == "rect" && $0.attributes["class"] == className }.map(\.attributes)
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append(Element(name: name, attributes: attributes))
        depth += 1
        if name == "title", depth == 2 { titleText = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if titleText != nil { titleText? += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "title", depth == 2, let text = titleText, rootTitle == nil { rootTitle = text }
        if name == "title" { titleText = nil }
        depth -= 1
    }
}
