@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `/health`, `/ready`, `/metrics` and `/openapi.yaml`.
@Suite struct OperationsTests {
    @Test func healthAnswersOKWithoutAnApp() async throws {
        try await TestApplication().test { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"status":"ok"}"#)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            }
        }
    }

    @Test func readyChecksTheDatabase() async throws {
        let test = try await TestApplication()
        try await test.test { client in
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"database":"sqlite","status":"ready"}"#)
            }
            await test.database.close()
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.text == envelope("not_ready", "the server cannot reach its database"))
            }
        }
    }

    @Test("each contract is served as its file; /openapi.yaml is their merge")
    func openAPIDocumentsAreTheContractFiles() async throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let core = try String(contentsOf: root.appendingPathComponent("Sources/KindredAPI/openapi.yaml"), encoding: .utf8)
        let closer = try String(contentsOf: root.appendingPathComponent("Sources/CloserAPI/openapi.yaml"), encoding: .utf8)
        let soulmate = try String(contentsOf: root.appendingPathComponent("Sources/SoulMateAPI/openapi.yaml"), encoding: .utf8)
        let streaksync = try String(contentsOf: root.appendingPathComponent("Sources/StreakAPI/openapi.yaml"), encoding: .utf8)
        let exeraser = try String(contentsOf: root.appendingPathComponent("Sources/EraserAPI/openapi.yaml"), encoding: .utf8)
        let merged = try OpenAPIMerge.merge([
            ("core", core), ("closer", closer), ("soulmate", soulmate), ("streaksync", streaksync), ("exeraser", exeraser),
        ])
        try await TestApplication().test { client in
            for (path, expected) in [
                ("/openapi/core.yaml", core), ("/openapi/closer.yaml", closer), ("/openapi/soulmate.yaml", soulmate),
                ("/openapi/streaksync.yaml", streaksync), ("/openapi/exeraser.yaml", exeraser), ("/openapi.yaml", merged),
            ] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == "application/yaml", "\(path)")
                    #expect(response.text == expected, "\(path)")
                }
            }
            try await client.execute(uri: "/openapi/billing.yaml", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("the home page names the version, the database, the apps and where to go next")
    func homePage() async throws {
        try await TestApplication().test { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let page = response.text
                for part in ["version 0.1.0", "<code>sqlite</code>", "<code>closer</code>", "<code>exeraser</code>",
                             "href=\"/admin\"", "href=\"/openapi/closer.yaml\"", "href=\"/openapi.yaml\"",
                             "kindred admin create", "docs/architecture.md"] {
                    #expect(page.contains(part), "the page shows \(part)")
                }
            }
        }
    }

    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        try await TestApplication().test { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/nowhere", method: .get, headers: [.xKindredApp: "closer"]) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                let text = response.text
                #expect(text.contains("# TYPE kindred_http_requests_total counter"))
                #expect(text.contains(#"kindred_http_requests_total{method="GET",route="/health",status="200"} 2"#))
                #expect(text.contains(#"kindred_http_requests_total{method="GET",route="NotFound",status="404"} 1"#))
                #expect(text.contains("# TYPE kindred_http_request_duration_seconds histogram"))
                #expect(text.contains(#"kindred_http_request_duration_seconds_count{method="GET",route="/health",status="200"} 2"#))
            }
        }
    }
}
