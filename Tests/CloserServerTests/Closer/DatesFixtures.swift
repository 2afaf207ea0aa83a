@testable import CloserServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing

/// Helpers of the dates and bucket-list tests: one couple's routes, the JSON of an answer, and
/// the rows the server queued.
struct DatesCouple: Sendable {
    let pair: CloserPair
    var a: SessionBody { pair.inviter }
    var b: SessionBody { pair.acceptor }
    var base: String { "/v1/closer/couples/\(pair.coupleID)" }
}

extension TestClientProtocol {
    /// A paired couple.
    func datesCouple(_ prefix: String) async throws -> DatesCouple {
        DatesCouple(pair: try await closerPair(prefix))
    }

    /// Swipes `ideaID` as `token` and returns the response.
    func swipe(_ couple: DatesCouple, _ ideaID: String, _ action: String, token: String) async throws -> TestResponse {
        try await call(.put, "\(couple.base)/dates/swipes/\(ideaID)", token: token, json: #"{"action":"\#(action)"}"#)
    }

    /// The ids of a list of objects under `key`.
    func ids(_ response: TestResponse, _ key: String, field: String = "id") -> [String] {
        (object(response)[key] as? [[String: Any]] ?? []).compactMap { $0[field] as? String }
    }
}

enum DatesFixtures {
    /// The notification types queued for `userID`, sorted.
    static func notifications(of userID: String, on sql: any SQLDatabase) async throws -> [String] {
        try await sql.select().column("type").from("kindred_notifications").where("user_id", .equal, userID)
            .all().map { try $0.decode(column: "type", as: String.self) }.sorted()
    }

    /// The realtime event types on the couple's channel, in order.
    static func events(of coupleID: String, on sql: any SQLDatabase) async throws -> [String] {
        try await sql.select().column("type").from("kindred_realtime_events").where("channel", .equal, "couple:\(coupleID)")
            .orderBy("seq").all().map { try $0.decode(column: "type", as: String.self) }
    }

    /// The number of rows of `table` where `column` is `value`.
    static func count(_ table: String, where column: String, is value: String, on sql: any SQLDatabase) async throws -> Int {
        try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(table)
            .where(SQLIdentifier(column), .equal, SQLBind(value)).first()?.decode(column: "n", as: Int.self) ?? -1
    }
}
