import ArgumentParser
import CloserKit
import Foundation

/// `kindred closer partner`: the partner's display name and photo URL.
struct CloserPartnerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "partner", abstract: "Show the partner's display name and photo URL (from their account profile)."
    )
    @OptionGroup var options: CloserPlayOptions

    func run() async throws {
        try await options.run { device in
            let partner = try await device.partnerProfile()
            try options.output(partner, lines: [
                "partner: \(partner.userId)",
                "name: \(partner.displayName ?? "(none)")",
                "photo: \(partner.photoUrl ?? "(none)")",
            ])
        }
    }
}
