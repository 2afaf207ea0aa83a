import ArgumentParser
import CloserKit
import Foundation

/// `kindred closer checkin due|answer|show`: the 30/60/90-day check-ins of a simulated phone.
struct CloserCheckinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin", abstract: "The couple's day 0/30/60/90 check-ins: what is due, answer one, show every answer.",
        subcommands: [Due.self, Answer.self, Show.self]
    )

    /// The check-ins in a JSON document.
    struct Listing: Encodable {
        var checkIns: [OpenedCheckIn]
    }

    /// `checkin due`: open check-ins this account has not answered.
    struct Due: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The open check-ins you have not answered yet.")
        @OptionGroup var options: CloserPlayOptions

        func run() async throws {
            try await options.run { device in
                let me = try await device.userId()
                let due = try await device.openedOutcomes().filter { $0.answerable && $0.answers[me] == nil }
                try options.output(Listing(checkIns: due), lines: due.isEmpty ? ["no check-in is due"] : due.map { "\($0.key)  \($0.date)" })
            }
        }
    }

    /// `checkin answer KEY [TEXT]` (the text from standard input when absent).
    struct Answer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer a check-in once (sealed under the couple key).")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "day_0, day_30, day_60 or day_90.") var key: String
        @Argument(help: "Your answers (read from standard input when absent).") var text: String?

        func run() async throws {
            let answers = text ?? StandardIO.readText()
            try await options.run { device in
                let checkIn = try await device.answerOutcome(key, text: answers)
                try options.output(checkIn, lines: ["answered \(checkIn.key) (\(checkIn.date))"])
            }
        }
    }

    /// `checkin show`: every check-in with the answers opened.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every check-in with both partners' answers.")
        @OptionGroup var options: CloserPlayOptions

        func run() async throws {
            try await options.run { device in
                let all = try await device.openedOutcomes()
                try options.output(
                    Listing(checkIns: all),
                    lines: all.flatMap { checkIn in
                        ["\(checkIn.key)  \(checkIn.date)  \(checkIn.answerable ? "open" : "not yet")"]
                            + checkIn.answers.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
                    }
                )
            }
        }
    }
}
