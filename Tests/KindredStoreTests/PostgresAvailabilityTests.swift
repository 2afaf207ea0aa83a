import KindredStore
import KindredTestSupport
import Testing

/// Reports, as its own test, whether the PostgreSQL half of the conformance suite runs.
@Suite struct PostgresAvailabilityTests {
    @Test(
        .enabled(
            if: TestDatabases.postgresURL != nil || TestDatabases.isCI,
            "KINDRED_TEST_POSTGRES_URL is unset: the PostgreSQL conformance cases are skipped (scripts/test starts one)"
        )
    )
    func postgresqlAnswers() async throws {
        guard TestDatabases.postgresURL != nil else {
            Issue.record("\(TestDatabases.PostgresMissing())")
            return
        }
        let answered = try await TestDatabases.with(.postgresql) { database in
            try await database.ping()
            return true
        }
        #expect(answered)
    }
}
