@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// Schemathesis, an independent property-based API tester, generates valid and invalid requests
/// from each of the server's contracts (`/openapi/core.yaml`, `/openapi/closer.yaml`) against a
/// live `kindred serve` and checks that no answer is a 5xx and that every answer's status, content
/// type and body match the document.
@Suite struct OpenAPIConformanceLiveTests {
    /// The `schemathesis` command, or nil when it is not installed.
    static let schemathesis: String? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return paths.map { "\($0)/schemathesis" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    @Test(.timeLimit(.minutes(5)), arguments: ["core", "closer"])
    func everyOperationConformsAndNoInputCausesAServerError(contract: String) async throws {
        guard let schemathesis = Self.schemathesis else {
            if ChildProcess.isCI { Issue.record("schemathesis is not installed (scripts/test installs it from PyPI)") }
            return
        }
        // Webhook credentials configured, so schemathesis's unsigned events get the documented
        // 401 rather than 500 `webhook_not_configured`.
        let server = try await LiveServer(environment: [
            "KINDRED_REVENUECAT_WEBHOOK_AUTH": "Bearer conformance-webhook-secret",
            "KINDRED_STRIPE_WEBHOOK_SECRET": "whsec_conformance",
        ])
        let answer = try LoopbackHTTP.exchange(
            port: server.port,
            head: "POST /v1/auth/anonymous HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kindred-App: closer\r\nConnection: close\r\n\r\n"
        )
        let body = try #require(answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) })
        let session = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let token = try #require(session?["accessToken"] as? String)

        // DELETE /v1/me is left out: it would delete the account the other operations use.
        let run = try ChildProcess.run(
            schemathesis,
            [
                "run", server.url.appendingPathComponent("openapi/\(contract).yaml").absoluteString,
                "-H", "Authorization: Bearer \(token)",
                "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
                "--max-examples", "25", "--exclude-method", "DELETE", "--seed", "20261122", "--no-color",
            ],
            input: []
        )
        let stopped = await server.stop()
        #expect(run.status == 0, "schemathesis found problems:\n\(run.text)\n\(run.stderr)")
        #expect(run.text.contains("passed"), "\(run.text)")
        #expect(stopped.status == 0)
        #expect(!stopped.stderr.contains("unhandled error"), "\(stopped.stderr)")
    }
}
