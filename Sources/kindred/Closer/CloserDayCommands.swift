import ArgumentParser
import CloserKit

/// `kindred closer today`.
struct CloserTodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today", abstract: "Show today's question and its state (asks for one when none is assigned yet).")

    @OptionGroup var options: CloserOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await closerRun { try CloserOutput.print(try await device.today()) }
    }
}

/// `kindred closer answer TEXT`.
struct CloserAnswerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "answer", abstract: "Seal and send your answer to today's question.")

    @OptionGroup var options: CloserOptions
    @Argument(help: "Your answer.") var text: String

    func run() async throws {
        let (device, _) = try options.device()
        try await closerRun { try CloserOutput.print(try await device.answer(text)) }
    }
}

/// `kindred closer reveal [--date D]`.
struct CloserRevealCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reveal", abstract: "Release your key and open both answers once both have answered (checks for tampering).")

    @OptionGroup var options: CloserOptions
    @Option(help: "The date (YYYY-MM-DD; default: today's question).") var date: String?

    func run() async throws {
        let (device, _) = try options.device()
        try await closerRun { try CloserOutput.print(try await device.reveal(date: date)) }
    }
}

/// `kindred closer history`.
struct CloserHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "List past questions with both answers where revealed.")

    @OptionGroup var options: CloserOptions
    @Option(help: "At most this many dates.") var limit = 30

    func run() async throws {
        let (device, _) = try options.device()
        try await closerRun {
            let days = try await device.history(limit: limit)
            if days.isEmpty { StandardIO.writeLine("no questions yet") }
            for day in days { try CloserOutput.print(day, failOnTamper: false) }
        }
    }
}

/// `kindred closer nudge`.
struct CloserNudgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "nudge", abstract: "Send your partner a gentle reminder.")

    @OptionGroup var options: CloserOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await closerRun {
            let result = try await device.nudge()
            if result.sent {
                StandardIO.writeLine("reminder sent")
            } else {
                StandardIO.writeLine("not sent: you can nudge again in \(result.retryAfterMinutes ?? 0) minutes")
            }
        }
    }
}

/// `kindred closer leave`.
struct CloserLeaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave", abstract: "Leave the couple: the server deletes it and its content; this device forgets its keys.")

    @OptionGroup var options: CloserOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await closerRun {
            try await device.leave()
            StandardIO.writeLine("left the couple")
        }
    }
}

/// How the day commands print a date.
enum CloserOutput {
    /// Prints the date, question and state; a revealed date adds both answers. A tampered or
    /// failed reveal is an error (one line, non-zero exit) unless `failOnTamper` is false.
    static func print(_ day: CloserDay, failOnTamper: Bool = true) throws {
        StandardIO.writeLine("\(day.date): \(day.questionText ?? day.questionId)")
        switch day.state {
        case .revealed(let mine, let partner):
            StandardIO.writeLine("state: revealed")
            StandardIO.writeLine("you: \(mine)")
            StandardIO.writeLine("partner: \(partner)")
        case .tampered, .failed:
            if failOnTamper { throw CommandFailure(day.state.description) }
            StandardIO.writeLine("state: \(day.state)")
        default:
            StandardIO.writeLine("state: \(day.state)")
        }
    }
}
