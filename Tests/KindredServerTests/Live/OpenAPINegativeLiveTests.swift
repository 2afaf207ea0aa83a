import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// Schemathesis's negative mode against a live `kindred serve`: for each contract it generates
/// requests that break the document (values beyond `maxLength`, `minimum`, `maxItems`, outside
/// a `pattern`, of the wrong type, missing required fields, …) and checks that every one is
/// refused with a 4xx in the documented error envelope, never a 5xx and never accepted
/// (`negative_data_rejection`). The server enforces the constraints from the same documents
/// (docs/security.md, item 12).
// Serialized: each case runs a server and schemathesis; ten at once exhaust the test PostgreSQL's
// connections and the machine.
@Suite(.serialized) struct OpenAPINegativeLiveTests {
    /// The `schemathesis` command, or nil when it is not installed.
    static let schemathesis: String? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return paths.map { "\($0)/schemathesis" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The statuses a refusal may have: the checks' defaults without 5xx, and 413, which the
    /// contracts name for a few oversized fields (`x-kindred-code: "413 …"`).
    static let configuration = """
        [checks.negative_data_rejection]
        expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]
        """

    @Test(.timeLimit(.minutes(8)), arguments: ["core", "closer", "soulmate", "streaksync", "exeraser"], Backend.all)
    func everyInvalidRequestIsRefusedWithTheEnvelope(contract: String, backend: Backend) async throws {
        guard let schemathesis = Self.schemathesis else {
            if ChildProcess.isCI { Issue.record("schemathesis is not installed (scripts/test installs it from PyPI)") }
            return
        }
        switch backend {
        case .sqlite:
            try await run(schemathesis, contract: contract, databaseURL: nil)
        case .postgresql:
            try await TestDatabases.with(.postgresql) { database in
                guard case .postgres(let pg) = database.configuration.url else { return }
                let url = "postgres://\(pg.username)\(pg.password.map { ":\($0)" } ?? "")@\(pg.host):\(pg.port)/\(pg.database)"
                try await run(schemathesis, contract: contract, databaseURL: url)
            }
        }
    }

    private func run(_ schemathesis: String, contract: String, databaseURL: String?) async throws {
        // Webhook credentials configured, so unsigned events get the documented 401.
        let server = try await LiveServer(databaseURL: databaseURL, environment: [
            "KINDRED_REVENUECAT_WEBHOOK_AUTH": "Bearer negative-webhook-secret",
            "KINDRED_STRIPE_WEBHOOK_SECRET": "whsec_negative",
        ])
        let folder = try TemporaryDirectory()
        let config = folder.url.appendingPathComponent("schemathesis.toml")
        try Data(Self.configuration.utf8).write(to: config)
        let app = contract == "core" ? "closer" : contract
        let answer = try LoopbackHTTP.exchange(
            port: server.port,
            head: "POST /v1/auth/anonymous HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kindred-App: \(app)\r\nConnection: close\r\n\r\n"
        )
        let body = try #require(answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) })
        let session = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let token = try #require(session?["accessToken"] as? String, "\(answer)")

        let run = try ChildProcess.run(
            schemathesis,
            [
                "--config-file", config.path, "--no-color",
                "run", server.url.appendingPathComponent("openapi/\(contract).yaml").absoluteString,
                "--mode", "negative", "--phases", "examples,coverage,fuzzing",
                "-H", "Authorization: Bearer \(token)",
                "--checks", "not_a_server_error,negative_data_rejection,content_type_conformance,response_schema_conformance",
                "--max-examples", "15", "--seed", "20261127",
                // DELETE would remove the account or couple the other operations use.
                "--exclude-method", "DELETE",
            ],
            input: []
        )
        let stopped = await server.stop()
        #expect(run.status == 0, "schemathesis found problems:\n\(run.text)\n\(run.stderr)")
        // It generated invalid requests and every one was refused (`656 generated, 656 passed`).
        #expect(run.text.range(of: #"Test cases:\s+([1-9][0-9]*) generated, \1 passed"#, options: .regularExpression) != nil, "\(run.text)")
        #expect(stopped.status == 0)
        #expect(!stopped.stderr.contains("unhandled error"), "\(stopped.stderr)")
    }
}
