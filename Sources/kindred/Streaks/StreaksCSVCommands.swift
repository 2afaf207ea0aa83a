import ArgumentParser
import Foundation
import StreakKit

/// `kindred streaks import FILE.csv`: results from a CSV (`date,game,puzzle,score,maxAttempts,completed`).
struct StreaksImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import results from a CSV; all rows are checked first, nothing is stored when one is refused.",
        discussion: "Large files report their progress on standard error every 1,000 rows.")

    @OptionGroup var options: StreaksOptions
    @Argument(help: "The CSV file.") var file: String

    func run() async throws {
        let text = String(decoding: try StandardIO.readFile(file), as: UTF8.self)
        let store = try options.store()
        try await options.run {
            let zone = try options.timeZone(store)
            var reported = false
            let outcome = try store.importCSV(text, timeZone: zone) { done, total in
                guard total >= 1_000 else { return }
                reported = true
                writeErrorLine("import: checked \(done) of \(total) rows")
            }
            if reported { writeErrorLine("import: storing…") }
            var lines = ["imported \(outcome.inserted) results (\(outcome.duplicates) already recorded)"]
            lines += outcome.newlyUnlocked.map(StreaksFormat.line)
            options.output(lines.joined(separator: "\n"), json: [
                "inserted": outcome.inserted, "duplicates": outcome.duplicates,
                "newAchievements": outcome.newlyUnlocked.map(StreaksFormat.object),
            ])
        }
    }
}

/// `kindred streaks export FILE.csv`: every stored result as CSV, oldest first.
struct StreaksExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write every stored result to a CSV file (- for standard output).")

    @OptionGroup var options: StreaksOptions
    @Argument(help: "The CSV file to write (- for standard output).") var file: String

    func run() async throws {
        let store = try options.store()
        try await options.run {
            let csv = try store.exportCSV()
            let count = try store.resultCount()
            if file == "-" {
                StandardIO.writeBytes(Array(csv.utf8))
                return
            }
            do {
                try Data(csv.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            } catch {
                throw CommandFailure("cannot write \(file): \(error.localizedDescription)")
            }
            options.output("exported \(count) results to \(file)", json: ["exported": count, "file": file])
        }
    }
}
