@testable import CloserServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredCrypto
import SQLKit
import Testing

/// Helpers of the check-in and capsule tests: sealed bodies as an honest device makes them.
enum OverTimeFixtures {
    /// The JSON body of a check-in answer sealed under `cipher` for `coupleID`.
    static func answers(_ text: String, cipher: CloserFieldCipher, coupleID: String) throws -> String {
        #"{"answers":"\#(try cipher.encrypt(text, coupleId: coupleID))"}"#
    }

    /// The JSON body of a capsule.
    static func capsule(title: String, content: String, unlockAt: String, cipher: CloserFieldCipher, coupleID: String) throws -> String {
        let sealedTitle = try cipher.encrypt(title, coupleId: coupleID)
        let sealedContent = try cipher.encrypt(content, coupleId: coupleID)
        return #"{"title":"\#(sealedTitle)","content":"\#(sealedContent)","unlockAt":"\#(unlockAt)"}"#
    }

    /// The notification rows of `type` for `userID`: (title, deliver_after).
    static func notifications(_ type: String, of userID: String, on sql: any SQLDatabase) async throws -> [(title: String, deliverAfter: Int64)] {
        try await sql.select().columns("title", "deliver_after").from("kindred_notifications").where("user_id", .equal, userID)
            .where("type", .equal, type).orderBy("created_at").all()
            .map { (try $0.decode(column: "title", as: String.self), try $0.decode(column: "deliver_after", as: Int64.self)) }
    }
}

extension TestClientProtocol {
    /// A fresh access token for `email` (after a pinned clock jumped past the last one's expiry).
    func freshToken(_ email: String) async throws -> String {
        let response = try await logIn(email)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(SessionBody.self).accessToken
    }
}
