import Foundation

extension GameResult {
    /// The result of an imported CSV row (`ResultsCSV`): recorded at local noon of its day in
    /// `timeZone`, with the details the row implies (a CSV keeps no grid, time split or hints
    /// beyond the score: docs/streaksync-device.md, "CSV import"). Pips rows carry no difficulty,
    /// so they come back as timed results without a variant.
    public init(imported row: ResultsCSV.Row, timeZone: TimeZone) {
        let noonUTC = Double(row.date.ordinal * 86_400 + 12 * 3_600)
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: noonUTC))
        let share = ParsedShare(
            game: row.game, puzzle: row.puzzle, variant: nil, score: row.score, maxScore: row.max, completed: row.completed,
            details: Self.importedDetails(row))
        self.init(
            share: share, recordedAt: Date(timeIntervalSince1970: noonUTC - Double(offset)), day: row.date, minuteOfDay: 720,
            utcOffsetSeconds: offset, timeZoneIdentifier: timeZone.identifier)
    }

    /// What a row's score says about its game's details.
    static func importedDetails(_ row: ResultsCSV.Row) -> GameDetails {
        switch row.game {
        case .wordle, .nerdle: return .guessGrid(GuessGrid(hardMode: false, rows: []))
        case .quordle, .quordleWeekly, .octordle, .dordle: return .boards(BoardResults(boards: [], reportedScore: nil))
        case .connections:
            return .connections(ConnectionsDetails(rows: [], solved: [], mistakes: row.completed ? max(0, row.score - 4) : 4))
        case .strands: return .strands(StrandsDetails(theme: "", hints: row.score, themeWords: 0, spangramPosition: 0))
        case .spellingBee: return .spellingBee(SpellingBeeDetails(rank: nil, words: nil, pangrams: nil))
        case .zip: return .zip(ZipDetails(seconds: row.score, backtracks: nil, flawless: false))
        case .pinpoint: return .pinpoint(PinpointDetails(guesses: row.score, matchPercentages: [], format: .emoji))
        case .framed: return .framed(FramedDetails(wrongGuesses: row.completed ? max(0, row.score - 1) : row.max))
        default: return .timed(TimedDetails(seconds: row.score, flawless: false))
        }
    }
}

/// Import and export of results as CSV.
extension StreakStore {
    /// Imports a results CSV: every row is checked first (nothing is stored when one is refused),
    /// then all are recorded in one transaction; rows already stored count as duplicates.
    /// - Parameters:
    ///   - text: the CSV (`ResultsCSV` format).
    ///   - timeZone: the zone the rows' days are in.
    ///   - now: the import's time.
    ///   - progress: called with (rows checked, rows in all) every 1,000 rows and at the end.
    /// - Throws: `.csv` for a malformed file, `.invalidImportRow` naming the line of a row its
    ///   game cannot produce; `.write`.
    public func importCSV(
        _ text: String, timeZone: TimeZone, now: Date = Date(), progress: (Int, Int) -> Void = { _, _ in }
    ) throws(StreakStoreError) -> BatchOutcome {
        let rows: [ResultsCSV.Row]
        do {
            rows = try ResultsCSV.parse(text)
        } catch {
            throw .csv(error)
        }
        var results: [GameResult] = []
        results.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            let result = GameResult(imported: row, timeZone: timeZone)
            do {
                _ = try Self.checked(result, catalog: catalog)
            } catch {
                // Rows are one line each (the format has no multi-line field): the header is line 1.
                throw .invalidImportRow(line: index + 2, reason: "\(row.game.rawValue) \(row.date): score \(row.score), max \(row.max) is not a result this game can have")
            }
            results.append(result)
            if (index + 1) % 1_000 == 0 { progress(index + 1, rows.count) }
        }
        progress(rows.count, rows.count)
        return try record(contentsOf: results, now: now)
    }

    /// Every stored result as CSV, oldest first (`ResultsCSV.export`).
    public func exportCSV() throws(StreakStoreError) -> String {
        ResultsCSV.export(try allResults())
    }
}
