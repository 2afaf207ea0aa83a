@testable import CloserServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing

/// Helpers of the challenge tests: joining, marking a day, reading an instance.
extension TestClientProtocol {
    /// Joins `challenge` as `token` and returns the response.
    func joinChallenge(_ couple: DatesCouple, _ challenge: String, token: String) async throws -> TestResponse {
        try await call(.post, "\(couple.base)/challenges", token: token, json: #"{"challengeId":"\#(challenge)"}"#)
    }

    /// Joins `challenge` as `token`, expecting 201; returns the instance id.
    func joinedChallenge(_ couple: DatesCouple, _ challenge: String, token: String) async throws -> String {
        let response = try await joinChallenge(couple, challenge, token: token)
        #expect(response.status == .created, "\(response.text)")
        return object(response)["id"] as? String ?? ""
    }

    /// PUTs day `day` of `instance` as `token`.
    func markDay(_ couple: DatesCouple, _ instance: String, _ day: Int, token: String) async throws -> TestResponse {
        try await call(.put, "\(couple.base)/challenges/\(instance)/days/\(day)", token: token)
    }

    /// A fresh access token for `session`, after the pinned clock moved past the old one's expiry.
    func freshToken(_ session: SessionBody) async throws -> String {
        let response = try await refresh(session.refreshToken)
        #expect(response.status == .ok, "\(response.text)")
        return object(response)["accessToken"] as? String ?? ""
    }

    /// The instance as `token` sees it.
    func challengeInstance(_ couple: DatesCouple, _ instance: String, token: String) async throws -> [String: Any] {
        object(try await call(.get, "\(couple.base)/challenges/\(instance)", token: token))
    }
}

enum ChallengesFixtures {
    /// `doneBy` of each day of an instance document, in day order.
    static func doneBy(_ instance: [String: Any]) -> [[String]] {
        (instance["days"] as? [[String: Any]] ?? []).map { $0["doneBy"] as? [String] ?? [] }
    }

    /// `doneCount` of each partner of an instance document, inviter first.
    static func doneCounts(_ instance: [String: Any]) -> [Int] {
        (instance["partners"] as? [[String: Any]] ?? []).map { $0["doneCount"] as? Int ?? -1 }
    }

    /// The `challenge` notifications queued for `userID`, as (title, body), oldest first.
    static func pushes(of userID: String, on sql: any SQLDatabase) async throws -> [String] {
        try await sql.select().columns("body").from("kindred_notifications").where("user_id", .equal, userID)
            .where("type", .equal, "challenge").orderBy("created_at").all().map { try $0.decode(column: "body", as: String.self) }
    }
}
