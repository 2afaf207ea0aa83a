@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The StreakSync profile (the display name friends see) and friend codes.
@Suite struct StreakProfileAndCodeTests {
    @Test(arguments: Backend.all)
    func aProfileHasNoNameUntilOneIsSetAndNamesAreChecked(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let ada = try await client.streakMember("ada", anonymous: true, profile: false)
            let empty = client.object(try await client.streak(.get, "/v1/streaksync/profile", token: ada.token))
            #expect(empty["userId"] as? String == ada.id && empty["displayName"] == nil && empty["updatedAt"] == nil)
            for bad in ["", "   ", String(repeating: "a", count: 201), "Ada\u{7}", "Ada\nLovelace"] {
                let response = try await client.streak(.put, "/v1/streaksync/profile", token: ada.token, json: #"{"displayName":\#(StreakFixtures.json(bad))}"#)
                expectRefusal(response, 422, "invalid_display_name", bad.debugDescription)
            }
            // Trimmed; 200 characters (not bytes) are allowed.
            let set = try await client.streak(.put, "/v1/streaksync/profile", token: ada.token, json: #"{"displayName":"  Ada 🔥  "}"#)
            #expect(client.object(set)["displayName"] as? String == "Ada 🔥")
            let long = String(repeating: "🔥", count: 200)
            #expect(try await client.streak(.put, "/v1/streaksync/profile", token: ada.token, json: #"{"displayName":"\#(long)"}"#).status == .ok)
            let read = client.object(try await client.streak(.get, "/v1/streaksync/profile", token: ada.token))
            #expect(read["displayName"] as? String == long && read["updatedAt"] as? String == StreakFixtures.noon)
            // The first name made Ada a reader of her own scores.
            #expect(try await StreakFixtures.readers(of: ada.id, on: application.database) == [ada.id])
            // The body's shape is checked by the contract's types.
            #expect(try await client.streak(.put, "/v1/streaksync/profile", token: ada.token, json: #"{"name":"Ada"}"#).status == .badRequest)
        }
    }

    @Test(arguments: Backend.all)
    func aFriendCodeIsSixUnambiguousCharactersMadeOnceAndFoundInAnyCase(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let ada = try await client.streakMember("ada")
            let bea = try await client.streakMember("bea")
            let code = try await client.friendCode(ada)
            #expect(code.count == 6 && code.allSatisfy { "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".contains($0) }, "\(code)")
            #expect(try await client.friendCode(ada) == code)
            #expect(try await StreakFixtures.count("streaksync_friend_codes", where: "user_id", is: ada.id, on: application.database) == 1)
            // Typed in lower case, with a space and a dash: still Ada's.
            let typed = code.lowercased().prefix(3) + " -" + code.lowercased().suffix(3)
            let response = try await client.streak(.post, "/v1/streaksync/friend-requests", token: bea.token, json: #"{"code":"\#(typed)"}"#)
            #expect(response.status == .created, "\(response.text)")
            #expect((client.object(response)["to"] as? [String: Any])?["id"] as? String == ada.id)
            // Codes of other people differ (32⁶ of them).
            var codes: Set<String> = [code, try await client.friendCode(bea)]
            for index in 0..<8 { codes.insert(try await client.friendCode(try await client.streakMember("m\(index)", profile: false))) }
            #expect(codes.count == 10)
        }
    }

    @Test(arguments: Backend.all)
    func aMalformedOrUnknownCodeIsRefused(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let ada = try await client.streakMember("ada")
            for bad in ["ABC", "ABCDEFG", "ABCDE0", "ABCDEO", "ABCDE1", "ABCDEI", "ÄBCDEF", ""] {
                let response = try await client.streak(.post, "/v1/streaksync/friend-requests", token: ada.token, json: #"{"code":"\#(bad)"}"#)
                expectRefusal(response, 422, "invalid_friend_code", bad)
            }
            let own = try await client.friendCode(ada)
            let unknown = own == "ZZZZZZ" ? "YYYYYY" : "ZZZZZZ"
            expectRefusal(
                try await client.streak(.post, "/v1/streaksync/friend-requests", token: ada.token, json: #"{"code":"\#(unknown)"}"#),
                404, "friend_code_not_found"
            )
            expectRefusal(
                try await client.streak(.post, "/v1/streaksync/friend-requests", token: ada.token, json: #"{"code":"\#(own)"}"#),
                422, "own_friend_code"
            )
        }
    }

    @Test(arguments: Backend.all)
    func codeLookUpsAreLimitedPerAccountFoundOrNot(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let cleo = try await client.streakMember("cleo")
            let dan = try await client.streakMember("dan")
            let limit = StreakSettings().codeLookupsPerUserPerHour
            for attempt in 0..<limit {
                expectRefusal(
                    try await client.streak(.post, "/v1/streaksync/friend-requests", token: cleo.token, json: #"{"code":"ZZZZZZ"}"#),
                    404, "friend_code_not_found", "attempt \(attempt)"
                )
            }
            let limited = try await client.requestFriend(from: cleo, to: dan)
            expectRefusal(limited, 429, "rate_limited")
            #expect(limited.headers[.retryAfter] != nil)
            // Another account is not limited by Cleo's look-ups.
            let eve = try await client.streakMember("eve")
            #expect(try await client.requestFriend(from: eve, to: dan).status == .created)
        }
    }

    @Test(arguments: Backend.all)
    func codeLookUpsAreLimitedPerAddressAcrossAccounts(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            // Router tests have no socket: every request comes from the address "unknown".
            let settings = StreakSettings()
            let accounts = settings.codeLookupsPerAddressPerHour / settings.codeLookupsPerUserPerHour
            for index in 0..<accounts {
                let member = try await client.streakMember("guesser-\(index)")
                for _ in 0..<settings.codeLookupsPerUserPerHour {
                    let response = try await client.streak(.post, "/v1/streaksync/friend-requests", token: member.token, json: #"{"code":"ZZZZZZ"}"#)
                    expectRefusal(response, 404, "friend_code_not_found")
                }
            }
            let fresh = try await client.streakMember("fresh")
            expectRefusal(try await client.streak(.post, "/v1/streaksync/friend-requests", token: fresh.token, json: #"{"code":"ZZZZZZ"}"#), 429, "rate_limited")
        }
    }
}
