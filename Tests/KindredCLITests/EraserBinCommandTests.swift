import Foundation
import KindredTestSupport
import Testing

/// `kindred eraser scan --contact`, `vault export`, `cooling-off list|restore`, `tick`,
/// `dashboard` and `history` through the built binary, each with `--json`.
@Suite struct EraserBinCommandTests {
    /// A calendar: two events with the ex (as an attendee by e-mail, by a national phone number),
    /// one with someone else, one with the ex's first name only in someone else's surname.
    static let calendar = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kindred//tests//EN",
        "BEGIN:VEVENT", "UID:dinner", "DTSTAMP:20230101T000000Z", "DTSTART:20230614T180000Z", "DTEND:20230614T210000Z",
        "SUMMARY:Dinner", "ATTENDEE;CN=Sam Taylor:mailto:sam.taylor@example.com", "END:VEVENT",
        "BEGIN:VEVENT", "UID:call", "DTSTAMP:20230101T000000Z", "DTSTART:20240102T090000Z", "DTEND:20240102T093000Z",
        "SUMMARY:Call", "ATTENDEE;CN=S:tel:0532 123 45 67", "END:VEVENT",
        "BEGIN:VEVENT", "UID:standup", "DTSTAMP:20230101T000000Z", "DTSTART:20230301T090000Z", "DTEND:20230301T091500Z",
        "SUMMARY:Standup", "ATTENDEE;CN=Alex Kim:mailto:alex@example.com", "END:VEVENT",
        "BEGIN:VEVENT", "UID:samsung", "DTSTAMP:20230101T000000Z", "DTSTART:20230401T090000Z", "DTEND:20230401T100000Z",
        "SUMMARY:Samsung launch", "END:VEVENT",
        "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    @Test func contactScanFindsExactlyTheEventsWithTheEx() throws {
        let folder = try TemporaryDirectory()
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let calendar = try folder.write("personal.ics", Array(Self.calendar.utf8))
        let cli = EraserCLI(profile: folder.url.appendingPathComponent("profile"))
        try cli.setUp()

        let summary = try cli.object(["scan", "--photos", photos.path, "--calendar", calendar.path, "--contact", "Sam Taylor",
                                      "--contact", "sam.taylor@example.com", "--contact", "+90 532 123 45 67", "--time-zone", "UTC"])
        #expect(summary["resultCount"] as? Int == 2)
        #expect(summary["byCategory"] as? [String: Int] == ["contact": 2])
        let results = try cli.results()
        #expect(Set(results.compactMap { $0["key"] as? String }) == ["event:personal/dinner", "event:personal/call"])
        #expect(Set(results.compactMap { $0["title"] as? String }) == ["Dinner", "Call"])
        #expect(results.allSatisfy { $0["kind"] as? String == "calendar_event" })
    }

    @Test func exportCoolingOffTickAndHistory() throws {
        let folder = try TemporaryDirectory()
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let names = ["a.jpg", "b.jpg"]
        for (index, name) in names.enumerated() {
            let url = photos.appendingPathComponent(name)
            try Data(EraserDeviceCommandTests.jpeg(width: UInt8(20 + index))).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_686_000_000)], ofItemAtPath: url.path)
        }
        let cli = EraserCLI(profile: folder.url.appendingPathComponent("profile"))
        try cli.setUp()
        _ = try cli.object(["scan", "--photos", photos.path, "--from", "2023-01-01", "--to", "2023-12-31", "--time-zone", "UTC"])
        let keys = try cli.results().compactMap { $0["key"] as? String }
        #expect(keys.count == 2)
        for key in keys { _ = try cli.object(["decide", key, "delete"]) }
        let applied = try #require(try cli.object(["apply", "--now", "2026-03-01T10:00:00Z"])["applied"] as? [[String: Any]])
        #expect(applied.map { $0["deleteAfter"] as? String } == ["2026-03-08T10:00:00Z", "2026-03-08T10:00:00Z"])
        let ids = applied.compactMap { $0["vaultItemID"] as? String }
        #expect(ids.count == 2)
        #expect(names.allSatisfy { !FileManager.default.fileExists(atPath: photos.appendingPathComponent($0).path) })

        let bin = try cli.array(["cooling-off", "list"])
        #expect(Set(bin.compactMap { $0["itemID"] as? String }) == Set(ids))
        #expect(bin.allSatisfy { $0["status"] as? String == "pending" })

        // The first item is taken back and exported; the second waits out its seven days.
        let restored = try cli.object(["cooling-off", "restore", ids[0]])
        #expect(restored["status"] as? String == "restored")
        #expect(restored["itemID"] as? String == ids[0])
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let exported = try #require(try cli.object(["vault", "export", ids[0], out.path])["file"] as? String)
        let item = try #require(try cli.array(["vault", "list"]).first { $0["id"] as? String == ids[0] })
        let width: UInt8 = item["originalPath"] as? String == "a.jpg" ? 20 : 21
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: exported))) == EraserDeviceCommandTests.jpeg(width: width))

        let daySix = try cli.object(["tick", "--now", "2026-03-07T11:00:00Z"])
        #expect(daySix["destroyed"] as? [String] == [])
        #expect((daySix["notifications"] as? [[String: Any]])?.count == 1)
        let dayEight = try cli.object(["tick", "--now", "2026-03-08T10:01:00Z"])
        #expect(dayEight["destroyed"] as? [String] == [ids[1]])
        #expect(dayEight["pending"] as? Int == 0)
        #expect(try cli.array(["vault", "list"]).compactMap { $0["id"] as? String } == [ids[0]])
        #expect(try cli.array(["cooling-off", "list"]).isEmpty)

        let board = try cli.object(["dashboard"])
        let scan = try #require(board["scan"] as? [String: Any])
        #expect(scan["found"] as? Int == 2)
        #expect(scan["byCategory"] as? [String: Int] == ["date_range": 2])
        #expect(scan["byKind"] as? [String: Int] == ["photo": 2])
        #expect(scan["decided"] as? [String: Int] == ["delete": 2])
        #expect(scan["undecided"] as? Int == 0)
        #expect(scan["waitingToApply"] as? Int == 0)
        #expect(board["vaulted"] as? [String: Int] == ["photo": 1])
        #expect(board["coolingOff"] as? Int == 0)
        #expect(board["nextDeletion"] == nil)
        #expect(board["destroyed"] as? Int == 1)
        #expect(board["rescued"] as? Int == 1)
        #expect(board["scans"] as? Int == 1)

        let history = try cli.array(["history"])
        #expect(history.count == 1)
        #expect(history.first?["totalMatched"] as? Int == 2)
        #expect(history.first?["totalDeleted"] as? Int == 2)
        #expect(history.first?["totalScanned"] as? Int == 2)
    }
}
