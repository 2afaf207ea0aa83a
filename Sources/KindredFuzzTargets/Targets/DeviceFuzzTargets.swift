import EraserKit
import Foundation
import StreakKit

extension FuzzTargets {
    /// What the apps read from outside on the device: pasted share texts and links (StreakSync),
    /// photo metadata and `.ics` files (Ex-Eraser).
    static let deviceTargets: [FuzzTarget] = [
        FuzzTarget(name: "streak-share", summary: "GameCatalog.parse / parseAll / parse(as:), StreakLink.parse, ResultsCSV.parse", body: streakShare),
        FuzzTarget(name: "eraser-media", summary: "MediaMetadataReader.read: JPEG/PNG/TIFF headers and EXIF", body: eraserMedia),
        FuzzTarget(name: "eraser-ics", summary: "ICSParser.parse, the .ics reader", body: eraserICS),
    ]

    /// The standard catalog, built once.
    static let catalog = GameCatalog()

    /// A share that parses is one of the catalog's games and survives a JSON round trip.
    static func streakShare(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let string = text(input)
        var parsed: [ParsedShare] = []
        if let share = try? catalog.parse(string) { parsed.append(share) }
        if let shares = try? catalog.parseAll(string) { parsed += shares }
        for game in catalog.games {
            if let share = try? catalog.parse(string, as: game.id) {
                try expect(share.game == game.id, "streak-share", "parse(as: \(game.id)) returned a share of \(share.game)")
                parsed.append(share)
            }
        }
        for share in parsed {
            try expect(catalog.game(share.game) != nil, "streak-share", "a share of \(share.game), not in the catalog")
            let again = (try? JSONEncoder().encode(share)).flatMap { try? JSONDecoder().decode(ParsedShare.self, from: $0) }
            try expect(again == share, "streak-share", "a parsed \(share.game) share does not survive JSON")
        }
        let link = try? StreakLink.parse(string)
        let rows = try? ResultsCSV.parse(string)
        return !parsed.isEmpty || link != nil || rows != nil
    }

    /// The metadata reader in UTC.
    static let mediaReader = MediaMetadataReader(timeZone: TimeZone(secondsFromGMT: 0) ?? .current)

    /// Image bytes are read or refused with a typed error.
    static func eraserMedia(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        (try? mediaReader.read(input, path: "fuzz")) != nil
    }

    /// A calendar that parses has components whose byte ranges lie inside the input.
    static func eraserICS(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        guard let document = try? ICSParser.parse(input, fileName: "fuzz.ics") else { return false }
        var pending = document.calendars
        while let component = pending.popLast() {
            let range = component.byteRange
            try expect(range.lowerBound >= 0 && range.upperBound <= input.count, "eraser-ics",
                       "\(component.name) spans \(range) of \(input.count) bytes")
            pending += component.children
        }
        return true
    }
}
