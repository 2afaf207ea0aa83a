@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import KindredStore
import Logging
import NIOCore
import HummingbirdTesting
import Testing

/// The cross-cutting behaviour every route shares: errors, request ids, apps, body limit.
@Suite struct MiddlewareTests {
    @Test func anUnreachableDatabaseIs503UnavailableWithRetryAfterNot500() async throws {
        let logger = Logger(label: "test")
        for outage in [IOError(errnoCode: ECONNREFUSED, reason: "connect") as any Error, KindredStoreError.connectionFailed("down")] {
            let error = KindredError(mapping: outage, logger: logger)
            #expect(error == .unavailable)
            let response = error.response()
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "5")
        }
        #expect(KindredError.unavailable.code == "unavailable")
        // A statement's own failure stays a bug: 500 `internal`, no Retry-After.
        let bug = KindredError(mapping: KindredStoreError.queryFailed("no such column"), logger: logger)
        #expect(bug == .internal && bug.response().headers[.retryAfter] == nil)
    }

    @Test func unknownRouteIsAJSONNotFound() async throws {
        try await TestApplication().test { client in
            try await client.execute(uri: "/v1/nothing", method: .get, headers: [.xKindredApp: "closer"]) { response in
                #expect(response.status == .notFound)
                #expect(response.text == envelope("not_found", "no such route"))
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.xRequestID] != nil)
            }
        }
    }

    @Test func wrongMethodIsAJSONError() async throws {
        try await TestApplication().test { client in
            try await client.execute(uri: "/health", method: .delete) { response in
                #expect(response.status == .methodNotAllowed || response.status == .notFound)
                let code = response.status == .notFound ? "not_found" : "method_not_allowed"
                #expect(response.text.hasPrefix(#"{"error":{"code":"\#(code)""#))
            }
        }
    }

    @Test func requestIDIsEchoedOrGenerated() async throws {
        try await TestApplication().test { client in
            try await client.execute(uri: "/health", method: .get, headers: [.xRequestID: "req-42.abc"]) { response in
                #expect(response.headers[.xRequestID] == "req-42.abc")
            }
            // An error response carries it too.
            try await client.execute(uri: "/x", method: .get, headers: [.xRequestID: "req-43"]) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.xRequestID] == "req-43")
            }
            for invalid in ["has space", String(repeating: "a", count: 129), ""] {
                try await client.execute(uri: "/health", method: .get, headers: [.xRequestID: invalid]) { response in
                    let generated = try #require(response.headers[.xRequestID])
                    #expect(generated != invalid)
                    #expect(UUID(uuidString: generated) != nil)
                }
            }
            var seen = Set<String>()
            for _ in 0..<3 {
                try await client.execute(uri: "/health", method: .get) { response in
                    seen.insert(try #require(response.headers[.xRequestID]))
                }
            }
            #expect(seen.count == 3)
        }
    }

    @Test func appHeaderIsRequiredAndChecked() async throws {
        try await TestApplication().test { client in
            try await client.execute(uri: "/v1/anything", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.text == envelope(
                    "missing_app", "the X-Kindred-App header is required (closer, soulmate, streaksync, exeraser or pulse)"
                ))
            }
            try await client.execute(uri: "/v1/anything", method: .get, headers: [.xKindredApp: "tinder"]) { response in
                #expect(response.status == .badRequest)
                #expect(response.text == envelope("unknown_app", #"X-Kindred-App \"tinder\" is not an app of this server"#))
            }
            for app in AppID.allCases {
                try await client.execute(uri: "/v1/anything", method: .get, headers: [.xKindredApp: app.rawValue]) { response in
                    #expect(response.status == .notFound)  // past the app check; no such route yet
                }
            }
            for exempt in ["/health", "/ready", "/metrics", "/openapi.yaml"] {
                try await client.execute(uri: exempt, method: .get, headers: [.xKindredApp: "tinder"]) { response in
                    #expect(response.status == .ok, "\(exempt)")
                }
            }
        }
    }

    @Test func disabledAppIsForbidden() async throws {
        var pulse = AppConfiguration.developmentDefault(for: .pulse)
        pulse.enabled = false
        let apps = AppRegistry(AppID.allCases.filter { $0 != .pulse }.map(AppConfiguration.developmentDefault(for:)) + [pulse])
        try await TestApplication(apps: apps).test { client in
            try await client.execute(uri: "/v1/anything", method: .get, headers: [.xKindredApp: "pulse"]) { response in
                #expect(response.status == .forbidden)
                #expect(response.text == envelope("app_disabled", "the app pulse is not enabled on this server"))
            }
        }
    }

    @Test func bodyOverTheLimitIs413() async throws {
        try await TestApplication(maxBodySize: 16).test { client in
            let big = ByteBuffer(repeating: UInt8(ascii: "x"), count: 17)
            try await client.execute(uri: "/v1/upload", method: .post, headers: [.xKindredApp: "closer"], body: big) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.text == envelope("payload_too_large", "the request body is larger than 16 bytes"))
            }
            let small = ByteBuffer(repeating: UInt8(ascii: "x"), count: 16)
            try await client.execute(uri: "/v1/upload", method: .post, headers: [.xKindredApp: "closer"], body: small) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func errorEnvelopeCodesAreStable() {
        let cases: [(KindredError, Int, String)] = [
            (.notFound, 404, "not_found"), (.methodNotAllowed, 405, "method_not_allowed"),
            (.payloadTooLarge(limit: 1), 413, "payload_too_large"), (.badRequest("x"), 400, "bad_request"),
            (.missingApp, 400, "missing_app"), (.unknownApp("x"), 400, "unknown_app"),
            (.appDisabled(.pulse), 403, "app_disabled"), (.rateLimited(retryAfterSeconds: 7), 429, "rate_limited"),
            (.notReady, 503, "not_ready"), (.http(status: 415, message: "x"), 415, "unsupported_media_type"),
            (.http(status: 499, message: "x"), 499, "http_499"), (.internal, 500, "internal"),
        ]
        for (error, status, code) in cases {
            #expect(error.status.code == status)
            #expect(error.code == code)
        }
        let limited = KindredError.rateLimited(retryAfterSeconds: 7).response()
        #expect(limited.headers[.retryAfter] == "7")
    }
}
