import ArgumentParser
import CloserKit

/// `kindred closer thread post|show`: one sealed message per partner under a question, opened
/// with the same release-key flow as the daily answers.
struct CloserThreadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thread", abstract: "Write or read the couple's thread on a question (sealed like the answers).",
        subcommands: [Post.self, Show.self])

    /// `thread post QUESTION TEXT`.
    struct Post: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "post", abstract: "Seal and post your message to the thread on a question (starts the thread when there is none).")
        @OptionGroup var options: CloserOptions
        @Argument(help: "The question's id, or `today` for today's question.") var question: String
        @Argument(help: "Your message.") var text: String

        func run() async throws {
            let (device, _) = try options.device()
            try await closerRun {
                let questionId = try await CloserThreadCommand.questionId(question, device: device)
                try CloserThreadCommand.print(try await device.postThreadMessage(questionId: questionId, text: text))
            }
        }
    }

    /// `thread show QUESTION`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Release your key once both posted and open both messages (checks for tampering).")
        @OptionGroup var options: CloserOptions
        @Argument(help: "The question's id, or `today` for today's question.") var question: String

        func run() async throws {
            let (device, _) = try options.device()
            try await closerRun {
                let questionId = try await CloserThreadCommand.questionId(question, device: device)
                try CloserThreadCommand.print(try await device.openThread(questionId: questionId))
            }
        }
    }

    /// The question id an argument names (`today` → today's question).
    static func questionId(_ argument: String, device: CloserDevice) async throws(CloserKitError) -> String {
        guard argument == "today" else { return argument }
        return try await device.currentQuestion(of: try await device.couple()).questionId
    }

    /// Prints the thread's question and state; a revealed thread adds both messages. A failed
    /// exchange is an error (one line, non-zero exit), as a tampered one already is.
    static func print(_ thread: CloserThreadView) throws {
        StandardIO.writeLine("thread \(thread.questionId): \(thread.questionText ?? thread.questionId)")
        switch thread.state {
        case .revealed(let mine, let partner):
            StandardIO.writeLine("state: revealed")
            StandardIO.writeLine("you: \(mine)")
            StandardIO.writeLine("partner: \(partner)")
        case .tampered, .failed:
            throw CommandFailure(thread.state.description)
        default:
            StandardIO.writeLine("state: \(thread.state)")
        }
    }
}
