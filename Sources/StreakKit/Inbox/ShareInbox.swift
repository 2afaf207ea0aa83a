import Foundation

/// The share extension's hand-off to the app: a folder in the profile (`<profile>/streaksync-inbox`)
/// where the extension drops each shared text as one file, and the app takes every file it finds,
/// at launch and when it comes to the foreground (docs/streaksync-device.md, "Share inbox").
///
/// Exactly once: a file is taken in the store transaction that records its result and writes its
/// receipt (`StreakStore.receiveInboxFile`), so when two app processes drain at the same time one
/// records it and the other finds the receipt; a crash before the file is removed leaves a file
/// whose receipt exists, which the next drain removes without recording it again. Files are
/// written under a temporary name and renamed, so a half-written file is never read.
public struct ShareInbox: Sendable {
    /// The inbox folder's name in a profile.
    public static let folderName = "streaksync-inbox"
    /// The file extension of a dropped share.
    public static let fileExtension = "share"

    /// One dropped share, as the extension writes it (JSON).
    public struct Item: Hashable, Sendable, Codable {
        /// The shared text, as the game put it on the clipboard.
        public var text: String
        /// When it was shared: the result's instant (its day is taken in the app's zone).
        public var sharedAt: Date
        /// The game the player picked in the extension, for texts that name none.
        public var game: GameID?

        /// An item from its parts.
        public init(text: String, sharedAt: Date, game: GameID? = nil) {
            self.text = text
            self.sharedAt = sharedAt
            self.game = game
        }
    }

    /// What one drain did, file by file in the order they were dropped.
    public struct Drain: Hashable, Sendable {
        /// Each file taken or skipped, with what happened to it.
        public var files: [(name: String, receipt: InboxReceipt)] = []

        /// The results recorded.
        public var added: [GameResult] {
            files.compactMap { if case .added(let result, _) = $0.receipt { result } else { nil } }
        }
        /// Files whose result was already recorded.
        public var duplicates: Int { files.count { if case .duplicate = $0.receipt { true } else { false } } }
        /// Files holding no recordable result, with the reason (moved to `rejected/`).
        public var rejected: [(name: String, reason: String)] {
            files.compactMap { if case .rejected(let reason) = $0.receipt { ($0.name, reason) } else { nil } }
        }
        /// Files another process took first.
        public var takenElsewhere: Int { files.count { $0.receipt == .alreadyTaken } }
        /// Tiers first reached by the added results.
        public var newlyUnlocked: [TierUnlock] {
            var unlocked: [TierUnlock] = []
            for file in files {
                if case .added(_, let tiers) = file.receipt { unlocked += tiers }
            }
            return unlocked
        }

        /// An empty report.
        public init() {}

        public static func == (lhs: Drain, rhs: Drain) -> Bool {
            lhs.files.map(\.name) == rhs.files.map(\.name) && lhs.files.map(\.receipt) == rhs.files.map(\.receipt)
        }

        public func hash(into hasher: inout Hasher) {
            for file in files {
                hasher.combine(file.name)
                hasher.combine(file.receipt)
            }
        }
    }

    /// The inbox folder.
    public let folder: URL

    /// The inbox at `folder` (created on the first drop).
    public init(folder: URL) { self.folder = folder }

    /// The inbox of a profile folder.
    public static func profile(at profile: URL) -> ShareInbox {
        ShareInbox(folder: profile.appendingPathComponent(folderName, isDirectory: true))
    }

    /// Where rejected files are kept for the player to look at.
    public var rejectedFolder: URL { folder.appendingPathComponent("rejected", isDirectory: true) }

    /// Drops a shared text (what the extension does): written under a temporary name, then renamed
    /// to `<milliseconds>-<uuid>.share` so it is complete when the app sees it.
    /// - Returns: the file's name.
    /// - Throws: `.inbox` for an empty text or one over `ShareText.byteLimit`, or a write failure.
    @discardableResult
    public func drop(_ item: Item) throws(StreakStoreError) -> String {
        guard !item.text.allSatisfy(\.isWhitespace) else { throw .inbox("the shared text is empty") }
        guard item.text.utf8.count <= ShareText.byteLimit else {
            throw .inbox("the shared text is \(item.text.utf8.count) bytes; at most \(ShareText.byteLimit) are kept")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(StoredDate.text(date))
        }
        let millis = max(0, Int64((item.sharedAt.timeIntervalSince1970 * 1000).rounded(.down)))
        let name = String(format: "%015lld", millis) + "-\(UUID().uuidString.lowercased()).\(Self.fileExtension)"
        let temporary = folder.appendingPathComponent(".\(name).tmp")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try encoder.encode(item).write(to: temporary)
            try FileManager.default.moveItem(at: temporary, to: folder.appendingPathComponent(name))
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .inbox("cannot write \(name) in \(folder.path): \(error.localizedDescription)")
        }
        return name
    }

    /// The dropped files waiting, oldest first.
    /// - Throws: `.inbox` when the folder exists but cannot be listed.
    public func waitingFiles() throws(StreakStoreError) -> [String] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".\(Self.fileExtension)") && !$0.hasPrefix(".") }.sorted()
        } catch {
            throw .inbox("cannot list \(folder.path): \(error.localizedDescription)")
        }
    }

    /// Takes every waiting file into `store`, oldest first: parses it, records its result (once,
    /// whatever other process drains too), then removes it; a file without a recordable result is
    /// moved to `rejected/`.
    /// - Parameters:
    ///   - store: the app's store.
    ///   - timeZone: the zone results are recorded in.
    ///   - now: the recording time.
    /// - Throws: `.inbox` when the folder cannot be listed; a store error.
    public func drain(into store: StreakStore, timeZone: TimeZone, now: Date = Date()) throws(StreakStoreError) -> Drain {
        var report = Drain()
        for name in try waitingFiles() {
            let url = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                // Removed by another drain between the listing and now.
                if try store.hasReceipt(forInboxFile: name) { report.files.append((name, .alreadyTaken)) }
                continue
            }
            let receipt = try store.receiveInboxFile(name, result: Self.result(data, catalog: store.catalog, timeZone: timeZone), now: now)
            switch receipt {
            case .rejected:
                try? FileManager.default.createDirectory(at: rejectedFolder, withIntermediateDirectories: true)
                do {
                    try FileManager.default.moveItem(at: url, to: rejectedFolder.appendingPathComponent(name))
                } catch where !FileManager.default.fileExists(atPath: url.path) {
                    // The other drain moved or removed it.
                } catch {
                    throw .inbox("cannot move \(name) to \(rejectedFolder.path): \(error.localizedDescription)")
                }
            default:
                do {
                    try FileManager.default.removeItem(at: url)
                } catch where !FileManager.default.fileExists(atPath: url.path) {
                    // The other drain removed it.
                } catch {
                    throw .inbox("cannot remove \(name): \(error.localizedDescription)")
                }
            }
            report.files.append((name, receipt))
        }
        return report
    }

    /// The result a dropped file holds, or why it holds none.
    static func result(_ data: Data, catalog: GameCatalog, timeZone: TimeZone) -> Result<GameResult, InboxRejection> {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = StoredDate.date(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not an instant"))
            }
            return date
        }
        guard let item = try? decoder.decode(Item.self, from: data) else {
            return .failure(InboxRejection("the file is not a shared item (JSON with text and sharedAt)"))
        }
        do throws(StreakKitError) {
            let share: ParsedShare
            if let game = item.game { share = try catalog.parse(item.text, as: game) } else { share = try catalog.parse(item.text) }
            return .success(GameResult(share: share, recordedAt: item.sharedAt, timeZone: timeZone))
        } catch {
            return .failure(InboxRejection(error.description))
        }
    }
}
