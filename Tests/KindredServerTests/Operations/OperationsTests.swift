import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KindredServer
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

    @Test func openAPIDocumentIsTheContractFile() async throws {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/KindredAPI/openapi.yaml")
        let expected = try String(contentsOf: source, encoding: .utf8)
        try await TestApplication().test { client in
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/yaml")
                #expect(response.text == expected)
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
