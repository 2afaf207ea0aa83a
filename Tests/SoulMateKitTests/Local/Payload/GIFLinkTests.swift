@testable import SoulMateKit
import Testing

@Suite struct GIFLinkTests {
    @Test func theIDTravelsInTheFragment() throws {
        let link = try GIFLink(url: "https://media.giphy.com/media/l0HlBO7eyXzSZkJri/giphy.gif", id: "l0HlBO7eyXzSZkJri")
        #expect(link.wireValue == "https://media.giphy.com/media/l0HlBO7eyXzSZkJri/giphy.gif#gif-id=l0HlBO7eyXzSZkJri")
        #expect(try GIFLink(wireValue: link.wireValue) == link)
    }

    @Test func aPlainURLStaysValidWithoutAnID() throws {
        let plain = try GIFLink(wireValue: "https://media.tenor.com/abc/tenor.gif?x=1")
        #expect(plain.id == nil && plain.url == "https://media.tenor.com/abc/tenor.gif?x=1")
        #expect(plain.wireValue == plain.url)
        let otherFragment = try GIFLink(wireValue: "https://g.example/a.gif#t=3")
        #expect(otherFragment.id == nil && otherFragment.url == "https://g.example/a.gif#t=3")
    }

    @Test(arguments: [
        "", "giphy.gif", "http://media.giphy.com/a.gif", "ftp://x/a.gif", "https:///a.gif", "https://user:pw@g.example/a.gif",
        "https://g.example/a b.gif", "https://g.example/a.gif#gif-id=", "https://g.example/a.gif#gif-id=bad id",
        "https://g.example/" + String(repeating: "a", count: 2048),
    ])
    func badValuesAreRefused(value: String) {
        #expect(throws: SoulMateKitError.self) { try GIFLink(wireValue: value) }
    }

    @Test func anIDNeedsAURLWithoutFragment() {
        #expect(throws: SoulMateKitError.self) { try GIFLink(url: "https://g.example/a.gif#x", id: "abc") }
        #expect(throws: SoulMateKitError.self) { try GIFLink(url: "https://g.example/a.gif", id: "a/b") }
    }
}
