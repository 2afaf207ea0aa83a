@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredTestSupport
import Testing

/// `GET /v1/closer/couples/{coupleId}/partner`: each member reads the other's display name and
/// photo URL from the account profile; changes show at once; nobody else reads them.
@Suite struct CloserPartnerProfileTests {
    @Test(arguments: Backend.all)
    func eachMemberReadsTheOthersNameAndPhoto(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let pair = try await client.closerPair("partner-profile")
            let path = "/v1/closer/couples/\(pair.coupleID)/partner"

            // Nothing set yet: only the id.
            let empty = try await client.call(.get, path, token: pair.inviter.accessToken)
            #expect(empty.status == .ok)
            #expect(client.object(empty) as NSDictionary == ["userId": pair.acceptor.user.id] as NSDictionary)

            let setBo = try await client.call(
                .patch, "/v1/me", token: pair.acceptor.accessToken,
                json: #"{"displayName":"Bo","photoURL":"https://img.example.com/bo.jpg"}"#
            )
            #expect(setBo.status == .ok, "\(String(buffer: setBo.body))")
            let setAda = try await client.call(.patch, "/v1/me", token: pair.inviter.accessToken, json: #"{"displayName":"Ada"}"#)
            #expect(setAda.status == .ok)

            let bo = client.object(try await client.call(.get, path, token: pair.inviter.accessToken))
            #expect(bo as NSDictionary == [
                "userId": pair.acceptor.user.id, "displayName": "Bo", "photoUrl": "https://img.example.com/bo.jpg",
            ] as NSDictionary)
            let ada = client.object(try await client.call(.get, path, token: pair.acceptor.accessToken))
            #expect(ada as NSDictionary == ["userId": pair.inviter.user.id, "displayName": "Ada"] as NSDictionary)

            // Clearing the photo removes it from the partner's view.
            _ = try await client.call(.patch, "/v1/me", token: pair.acceptor.accessToken, json: #"{"photoURL":""}"#)
            let cleared = client.object(try await client.call(.get, path, token: pair.inviter.accessToken))
            #expect(cleared as NSDictionary == ["userId": pair.acceptor.user.id, "displayName": "Bo"] as NSDictionary)
        }
    }

    @Test(arguments: Backend.all)
    func strangersAndFormerPartnersGetCoupleNotFound(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let pair = try await client.closerPair("partner-refusals")
            let path = "/v1/closer/couples/\(pair.coupleID)/partner"
            let stranger = try await client.signUp("partner-stranger@example.com")
            let refused = try await client.call(.get, path, token: stranger.accessToken)
            #expect(refused.status == .notFound)
            #expect(refused.errorCode == "couple_not_found")

            let other = try await client.signUp("partner-other@example.com", app: "pulse")
            let wrongApp = try await client.call(.get, path, app: "pulse", token: other.accessToken)
            #expect(wrongApp.status == .forbidden)
            #expect(wrongApp.errorCode == "wrong_app")

            let left = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/leave", token: pair.inviter.accessToken)
            #expect(left.status == .noContent)
            for token in [pair.inviter.accessToken, pair.acceptor.accessToken] {
                let gone = try await client.call(.get, path, token: token)
                #expect(gone.status == .notFound)
                #expect(gone.errorCode == "couple_not_found")
            }
        }
    }
}
