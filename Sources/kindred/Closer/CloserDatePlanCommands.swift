import ArgumentParser
import CloserAPI
import CloserKit
import Foundation

/// `kindred closer dates plan create|edit|status|list|show`: the couple's date plans.
struct CloserDatePlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Plan dates together: draft → planned → completed, in the couple's time zone.",
        subcommands: [Create.self, Edit.self, Status.self, List.self, Show.self]
    )

    /// `plan create (--match ID | --title T) [--notes N] [--date D] [--time T]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Plan a date from a match or from your own words.")
        @OptionGroup var options: CloserPlayOptions
        @Option(help: "A match's id (from `dates matches`).") var match: String?
        @Option(help: "The title (default: the matched idea's).") var title: String?
        @Option(help: "Notes (stored in plaintext under the couple).") var notes: String?
        @Option(help: "The couple's local date, YYYY-MM-DD (the plan is then planned).") var date: String?
        @Option(help: "The couple's local time, HH:MM.") var time: String?

        func run() async throws {
            try await options.run { device in
                guard match != nil || title != nil else { throw CommandFailure("give --match ID or --title TEXT") }
                let plan = try await device.createDatePlan(.init(matchId: match, title: title, notes: notes, date: date, time: time))
                try options.output(plan, lines: CloserDatePlanCommand.lines(plan))
            }
        }
    }

    /// `plan edit PLAN [--title] [--notes] [--date] [--time] [--revision N]`.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a plan's title, notes, date or time (either partner).")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The plan's id.") var plan: String
        @Option var title: String?
        @Option var notes: String?
        @Option(help: "YYYY-MM-DD.") var date: String?
        @Option(help: "HH:MM.") var time: String?
        @Option(help: "Apply only if the plan is still at this revision.") var revision: Int?

        func run() async throws {
            try await options.run { device in
                let updated = try await device.updateDatePlan(plan, .init(title: title, notes: notes, date: date, time: time, expectedRevision: revision))
                try options.output(updated, lines: CloserDatePlanCommand.lines(updated))
            }
        }
    }

    /// `plan status PLAN draft|planned|completed`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a plan: draft → planned (needs a date) → completed.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The plan's id.") var plan: String
        @Argument(help: "draft, planned or completed.") var status: String

        func run() async throws {
            try await options.run { device in
                let updated = try await device.updateDatePlan(plan, .init(status: status))
                try options.output(updated, lines: CloserDatePlanCommand.lines(updated))
            }
        }
    }

    /// `plan list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The couple's plans, most recently changed first.")
        @OptionGroup var options: CloserPlayOptions

        func run() async throws {
            try await options.run { device in
                let plans = try await device.datePlans()
                try options.output(
                    Components.Schemas.CloserDatePlanList(plans: plans),
                    lines: plans.isEmpty ? ["no plans yet"] : plans.map { "\($0.id)  \($0.status)  \(CloserDatePlanCommand.when($0))  \($0.title)" }
                )
            }
        }
    }

    /// `plan show PLAN`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One plan with its history.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The plan's id.") var plan: String

        func run() async throws {
            try await options.run { device in
                let shown = try await device.datePlan(plan)
                let history = (shown.history ?? []).map { "  r\($0.revision) \($0.kind) → \($0.status) by \($0.userId)" }
                try options.output(shown, lines: CloserDatePlanCommand.lines(shown) + history)
            }
        }
    }

    /// The text form of a plan.
    static func lines(_ plan: Components.Schemas.CloserDatePlan) -> [String] {
        ["plan \(plan.id) (\(plan.status), revision \(plan.revision)): \(plan.title)", "when: \(when(plan))"]
            + (plan.notes.isEmpty ? [] : ["notes: \(plan.notes)"])
    }

    /// `2026-12-24 19:30 America/Chicago`, or `unscheduled`.
    static func when(_ plan: Components.Schemas.CloserDatePlan) -> String {
        guard let date = plan.date else { return "unscheduled" }
        return [date, plan.time, plan.timeZone].compactMap { $0 }.joined(separator: " ")
    }
}
