import ArgumentParser
import Foundation

/// `kindred eraser`: Ex-Eraser's operator commands (analytics) and, on a profile, its device flows.
struct EraserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eraser",
        abstract: "Ex-Eraser: its anonymous analytics (operators) and its device flows (docs/exeraser.md).",
        subcommands: [
            EraserAnalyticsCommand.self, EraserSetupCommand.self, EraserScanCommand.self, EraserReviewCommand.self,
            EraserDecideCommand.self, EraserApplyCommand.self, EraserVaultCommand.self, EraserCoolingOffCommand.self,
            EraserTickCommand.self, EraserHistoryCommand.self, EraserDashboardCommand.self, EraserMessagesCommand.self,
        ]
    )
}
