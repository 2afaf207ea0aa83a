@testable import KindredServer
@testable import KindredServerCore
import Foundation
import HummingbirdTesting
import HTTPTypes
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import SQLKit

/// Bodies, clocks and reads shared by Ex-Eraser's suites.
enum EraserFixtures {
    /// The instant the suites run at.
    static let start = BillingFixtures.start
    /// `start` as the contract writes times.
    static var now: String { start.formatted(.iso8601) }

    /// One analytics event as JSON.
    static func event(_ name: String, at time: String? = nil, properties: String? = nil) -> String {
        var parts = [#""event":"\#(name)""#, #""occurredAt":"\#(time ?? now)""#]
        if let properties { parts.append(#""properties":\#(properties)"#) }
        return "{\(parts.joined(separator: ","))}"
    }

    /// A batch body.
    static func batch(_ events: [String]) -> String { #"{"events":[\#(events.joined(separator: ","))]}"# }

    /// The stored analytics rows, every column, ordered by event then properties.
    static func storedEvents(on database: Database) async throws -> [[String: String]] {
        try await database.sql.select().column("*").from("exeraser_analytics_events").all().map { row in
            var values: [String: String] = [:]
            for column in row.allColumns {
                // The hour is a number on both backends (PostgreSQL's BIGINT does not decode as text).
                if column == "occurred_hour", let number = try? row.decode(column: column, as: Int64.self) {
                    values[column] = String(number)
                } else if let text = try? row.decode(column: column, as: String.self) {
                    values[column] = text
                }
            }
            return values
        }.sorted { ($0["event"] ?? "", $0["properties"] ?? "") < ($1["event"] ?? "", $1["properties"] ?? "") }
    }
}

extension TestClientProtocol {
    /// A fresh access token for `session` (after a test clock has moved past the token's life).
    func refreshed(_ session: SessionBody) async throws -> String {
        try await refresh(session.refreshToken, app: "exeraser").decode(SessionBody.self).accessToken
    }

    /// An Ex-Eraser call.
    func eraser(_ method: HTTPRequest.Method, _ path: String, token: String?, json: String? = nil) async throws -> TestResponse {
        try await call(method, path, app: "exeraser", token: token, json: json)
    }
}
