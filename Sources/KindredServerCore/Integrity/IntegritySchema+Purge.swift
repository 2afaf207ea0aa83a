import KindredStore
import SQLKit

extension IntegritySchema {
    /// The index `integrity.purge-expired` pages expired challenges by (`IntegrityPurge`).
    static let indexChallengeExpiry = Migration("integrity_0002_challenge_expiry") { sql in
        try await sql.create(index: "kindred_integrity_challenges_expiry").on("kindred_integrity_challenges")
            .column("expires_at").run()
    }
}
