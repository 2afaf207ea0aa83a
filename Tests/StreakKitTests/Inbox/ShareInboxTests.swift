import Foundation
import KindredTestSupport
import StreakKit
import Testing

/// The share-extension inbox: files dropped by the extension, each added exactly once.
@Suite struct ShareInboxTests {
    let day = Fixtures.monday

    func wordle(_ puzzle: Int, _ guesses: Int = 3) -> String { "Wordle 1,\(puzzle) \(guesses)/6\n\n⬛🟨⬛⬛⬛\n🟩🟩⬛🟩⬛\n🟩🟩🟩🟩🟩" }

    @Test func aDrainAddsEachShareOnceAndSetsAsideWhatItCannotRead() throws {
        let folder = try TemporaryDirectory()
        let store = try StreakStore.profile(at: folder.url)
        let inbox = ShareInbox.profile(at: folder.url)
        let at = Fixtures.instant(day, hour: 8)
        let first = try inbox.drop(.init(text: "look!\n" + wordle(492), sharedAt: at))
        let garbled = try inbox.drop(.init(text: "Wordle 1,493 9/6", sharedAt: at.addingTimeInterval(1)))
        let bare = try inbox.drop(.init(text: "Completed in 0:45", sharedAt: at.addingTimeInterval(2), game: .miniCrossword))
        try Data("not json".utf8).write(to: inbox.folder.appendingPathComponent("000000000000009-x.share"))
        #expect(try inbox.waitingFiles() == ["000000000000009-x.share", first, garbled, bare])
        #expect(first.hasPrefix(String(format: "%015lld", Int64(at.timeIntervalSince1970 * 1000))) && first.hasSuffix(".share"))

        let report = try inbox.drain(into: store, timeZone: Fixtures.utc, now: at.addingTimeInterval(60))
        #expect(report.added.map(\.id.rawValue) == ["wordle:1492:2026-03-02", "mini-crossword:-:2026-03-02"])
        #expect(report.added[0].recordedAt == at)
        #expect(report.rejected.map(\.name) == ["000000000000009-x.share", garbled])
        #expect(report.rejected[1].reason.hasPrefix("wordle share"), "\(report.rejected)")
        #expect(report.duplicates == 0 && report.takenElsewhere == 0)
        #expect(try inbox.waitingFiles().isEmpty)
        let kept = try FileManager.default.contentsOfDirectory(atPath: inbox.rejectedFolder.path).sorted()
        #expect(kept == ["000000000000009-x.share", garbled])
        #expect(try store.allResults().count == 2)
        #expect(try store.pendingUploads(kind: .result).count == 2)

        // The same share pasted in the app and shared through the extension is recorded once.
        try inbox.drop(.init(text: wordle(492), sharedAt: at.addingTimeInterval(120)))
        let again = try inbox.drain(into: store, timeZone: Fixtures.utc, now: at.addingTimeInterval(180))
        #expect(again.duplicates == 1 && again.added.isEmpty)
        #expect(try store.allResults().count == 2)
    }

    @Test func aFileTakenBeforeACrashIsRemovedNotAddedAgain() throws {
        let folder = try TemporaryDirectory()
        let store = try StreakStore.profile(at: folder.url)
        let inbox = ShareInbox.profile(at: folder.url)
        let name = try inbox.drop(.init(text: wordle(500), sharedAt: Fixtures.instant(day, hour: 9)))
        // The app recorded it and died before removing the file.
        let result = GameResult(share: try GameCatalog().parse(wordle(500)), recordedAt: Fixtures.instant(day, hour: 9), timeZone: Fixtures.utc)
        guard case .added = try store.receiveInboxFile(name, result: .success(result)) else { Issue.record("not added"); return }
        let report = try inbox.drain(into: store, timeZone: Fixtures.utc)
        #expect(report.files.map(\.receipt) == [.alreadyTaken])
        #expect(try inbox.waitingFiles().isEmpty)
        #expect(try store.allResults() == [result])
    }

    @Test func theExtensionRefusesAnEmptyOrOversizedText() throws {
        let inbox = ShareInbox(folder: try TemporaryDirectory().url.appendingPathComponent("inbox"))
        #expect(throws: StreakStoreError.inbox("the shared text is empty")) { try inbox.drop(.init(text: " \n", sharedAt: Date())) }
        let long = String(repeating: "a", count: ShareText.byteLimit + 1)
        #expect(throws: StreakStoreError.inbox("the shared text is \(ShareText.byteLimit + 1) bytes; at most \(ShareText.byteLimit) are kept")) {
            try inbox.drop(.init(text: long, sharedAt: Date()))
        }
        #expect(try inbox.waitingFiles().isEmpty)
    }

    @Test func twoAppsDrainingAtOnceAddEveryShareExactlyOnce() async throws {
        let folder = try TemporaryDirectory()
        let inbox = ShareInbox.profile(at: folder.url)
        let count = 60
        for index in 0..<count {
            try inbox.drop(.init(text: wordle(600 + index), sharedAt: Fixtures.instant(day, hour: 10).addingTimeInterval(Double(index))))
        }
        // Two stores on one file: two connections, as two app processes have.
        let stores = [try StreakStore.profile(at: folder.url), try StreakStore.profile(at: folder.url)]
        let reports = try await withThrowingTaskGroup(of: ShareInbox.Drain.self) { group in
            for store in stores {
                group.addTask { try inbox.drain(into: store, timeZone: Fixtures.utc) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let added = reports.flatMap(\.added).map(\.id.rawValue)
        #expect(added.count == count)
        #expect(Set(added).count == count)
        #expect(reports.map(\.duplicates) == [0, 0])
        #expect(try stores[0].allResults().count == count)
        #expect(try stores[1].pendingUploads(kind: .result).count == count)
        #expect(try inbox.waitingFiles().isEmpty)
    }
}
