import ArgumentParser
import CloserAPI
import CloserKit
import CloserServer
import Foundation
import KindredStore

/// `kindred closer dates …`: a phone's deck, swipes, matches, weights and plans, and the
/// operators' `import` of date ideas (docs/closer.md, "Dates and the bucket list").
struct CloserDatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dates",
        abstract: "Date ideas: swipe your deck, see your matches, plan dates; import ideas (operators).",
        subcommands: [Deck.self, Swipe.self, Matches.self, Prefs.self, CloserDatePlanCommand.self, Import.self]
    )

    /// `dates deck [--limit N]`.
    struct Deck: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The ideas you have not swiped yet, your favourite categories first.")
        @OptionGroup var options: CloserPlayOptions
        @Option(help: "How many ideas to show (1–100).") var limit = 10

        func run() async throws {
            try await options.run { device in
                let deck = try await device.dateDeck(limit: limit)
                try options.output(deck, lines: deck.ideas.map(CloserDatesCommand.line) + ["\(deck.remaining) idea(s) left to swipe"])
            }
        }
    }

    /// `dates swipe ID love|maybe|skip`.
    struct Swipe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Swipe an idea; your partner never sees your swipes, only a mutual love.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The idea's id (from `dates deck`).") var idea: String
        @Argument(help: "love, maybe or skip.") var action: DateSwipe

        func run() async throws {
            try await options.run { device in
                let swipe = try await device.swipe(idea, action)
                var lines = ["\(swipe.action) \(swipe.ideaId)"]
                if let match = swipe.match { lines.append("match \(match.id): you both love \(match.idea?.title ?? match.ideaId)") }
                try options.output(swipe, lines: lines)
            }
        }
    }

    /// `dates matches`.
    struct Matches: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The ideas you both love, newest first.")
        @OptionGroup var options: CloserPlayOptions

        func run() async throws {
            try await options.run { device in
                let matches = try await device.dateMatches()
                try options.output(
                    Components.Schemas.CloserDateMatchPage(matches: matches),
                    lines: matches.isEmpty ? ["no matches yet"] : matches.map { "\($0.id)  \($0.ideaId)  \($0.idea?.title ?? "")" }
                )
            }
        }
    }

    /// `dates prefs [CATEGORY=WEIGHT …]`.
    struct Prefs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show your category weights, or replace them (at_home outdoors food culture adventure budget, -3…3).")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "CATEGORY=WEIGHT pairs; none shows the current weights.") var weights: [String] = []

        func run() async throws {
            try await options.run { device in
                var parsed: [String: Int] = [:]
                for pair in weights {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, let weight = Int(parts[1]) else { throw CommandFailure("\(pair): expected CATEGORY=WEIGHT, e.g. food=2") }
                    parsed[String(parts[0])] = weight
                }
                let result = weights.isEmpty ? try await device.datePreferences() : try await device.setDatePreferences(parsed)
                let document = Components.Schemas.CloserDatePreferences(
                    preferences: result.sorted { $0.key < $1.key }.map { .init(category: $0.key, weight: $0.value) }
                )
                try options.output(document, lines: result.isEmpty ? ["no weights: every category counts the same"] : result.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            }
        }
    }

    /// `dates import FILE` (operators, on the server's database).
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a date-idea file (format kindred-closer-date-ideas) and store its ideas; servers serve them after a restart.")
        @OptionGroup var options: ServerOptions
        @Flag(help: "Print one JSON document on standard output.") var json = false
        @Argument(help: "A JSON date-idea document.") var file: String

        func run() async throws {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: file)) else { throw ValidationError("cannot read \(file)") }
            do {
                let summary = try await options.withMigratedDatabase { database, _, _ in
                    try await DateIdeasImport.run(data, database: database, clock: SystemClock())
                }
                StandardIO.writeLine(json ? ChatOptions.encode(["imported": summary.ideaIDs, "catalogIdeaCount": summary.catalogIdeaCount]) : summary.description)
            } catch let error as DateIdeasError {
                if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": "invalid_date_ideas", "message": error.description]])) }
                throw CommandFailure(error.description)
            }
        }
    }

    /// One line of an idea: `home-001  [at_home, free]  Blanket fort cinema` (cost as `$`…`$$$`).
    static func line(_ idea: Components.Schemas.CloserDateIdea) -> String {
        "\(idea.id)  [\(idea.category), \(idea.costLevel == 0 ? "free" : String(repeating: "$", count: idea.costLevel))]  \(idea.title)"
    }
}
