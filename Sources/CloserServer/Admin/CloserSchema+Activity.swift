import KindredStore
import SQLKit

extension CloserSchema {
    /// Indexes for the console's daily activity: answers by creation time and dates by the time
    /// both partners had answered (the reveal), so "today" and its last 30 days are range reads
    /// of an index, not scans of `closer_answers` or `closer_days`.
    static let createActivityIndexes = Migration("closer_0006_activity_indexes") { sql in
        try await sql.create(index: "closer_answers_created").on("closer_answers").column("created_at").run()
        try await sql.create(index: "closer_days_completed").on("closer_days").column("completed_at").run()
    }
}
