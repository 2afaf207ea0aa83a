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

/// Friendships: the sender asks with a code, only the recipient accepts, either side removes;
/// the score readers follow in the same transaction.
@Suite struct StreakFriendshipTests {
    @Test(arguments: Backend.all)
    func aRequestAcceptedMakesEachAReaderOfTheOther(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let database = application.database
            let ada = try await client.streakMember("ada", displayName: "Ada")
            let bea = try await client.streakMember("bea", displayName: "Bea")
            let request = try await client.requestFriend(from: ada, to: bea)
            #expect(request.status == .created, "\(request.text)")
            let created = client.object(request)
            let id = created["id"] as? String ?? ""
            #expect(created["status"] as? String == "pending")
            #expect((created["from"] as? [String: Any])?["displayName"] as? String == "Ada")
            #expect((created["to"] as? [String: Any])?["displayName"] as? String == "Bea")
            #expect(created["createdAt"] as? String == StreakFixtures.noon && created["acceptedAt"] == nil)
            // Pending: nobody reads anybody yet; each sees the request in its box.
            #expect(try await StreakFixtures.readers(of: ada.id, on: database) == [ada.id])
            let adas = client.object(try await client.streak(.get, "/v1/streaksync/friends", token: ada.token))
            #expect((adas["outgoing"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect((adas["incoming"] as? [Any])?.isEmpty == true && (adas["friends"] as? [Any])?.isEmpty == true)
            let beas = client.object(try await client.streak(.get, "/v1/streaksync/friends", token: bea.token))
            #expect((beas["incoming"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            // Bea was told, on her channel and by push; Ada's other devices too.
            #expect(try await StreakFixtures.events("streaksync.friend_request", for: bea.id, on: database).map { $0.strings["friendshipId"] } == [id])
            #expect(try await StreakFixtures.events("streaksync.friend_request", for: ada.id, on: database).count == 1)
            #expect(try await Self.pushes(for: bea.id, on: database) == ["streaksync.friend_request"])

            // Asking again is refused; the sender cannot accept.
            expectRefusal(try await client.requestFriend(from: ada, to: bea), 409, "friend_request_exists")
            expectRefusal(try await client.streak(.post, "/v1/streaksync/friendships/\(id)/accept", token: ada.token), 403, "not_recipient")
            let accepted = try await client.streak(.post, "/v1/streaksync/friendships/\(id)/accept", token: bea.token)
            #expect(accepted.status == .ok, "\(accepted.text)")
            #expect(client.object(accepted)["status"] as? String == "accepted")
            #expect(client.object(accepted)["acceptedAt"] as? String == StreakFixtures.noon)
            #expect(try await StreakFixtures.readers(of: ada.id, on: database) == [ada.id, bea.id].sorted())
            #expect(try await StreakFixtures.readers(of: bea.id, on: database) == [ada.id, bea.id].sorted())
            #expect(try await StreakFixtures.events("streaksync.friendship", for: ada.id, on: database).map { $0.strings["status"] } == ["accepted"])
            #expect(try await Self.pushes(for: ada.id, on: database) == ["streaksync.friendship"])
            // Accepting twice, or asking a friend, is refused.
            expectRefusal(try await client.streak(.post, "/v1/streaksync/friendships/\(id)/accept", token: bea.token), 409, "already_friends")
            expectRefusal(try await client.requestFriend(from: bea, to: ada), 409, "already_friends")
            let friends = client.object(try await client.streak(.get, "/v1/streaksync/friends", token: bea.token))
            let list = friends["friends"] as? [[String: Any]] ?? []
            #expect(list.map { ($0["user"] as? [String: Any])?["id"] as? String } == [ada.id])
            #expect(list.first?["friendshipId"] as? String == id && list.first?["since"] as? String == StreakFixtures.noon)
            #expect((friends["incoming"] as? [Any])?.isEmpty == true)
        }
    }

    /// The pushes queued for `userID`, by the event they announce.
    static func pushes(for userID: String, on database: Database) async throws -> [String] {
        try await database.sql.select().columns("type", "data").from("kindred_notifications").where("user_id", .equal, userID)
            .orderBy("created_at").all().map { row in
                #expect(try row.decode(column: "type", as: String.self) == "streaksync_friends")
                let data = try row.decode(column: "data", as: String.self)
                return ((try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: String])?["event"] ?? ""
            }
    }

    @Test(arguments: Backend.all)
    func askingSomeoneWhoAskedYouAcceptsAtOnce(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let ada = try await client.streakMember("ada")
            let bea = try await client.streakMember("bea")
            let id = try await client.pendingFriendship(from: ada, to: bea)
            let back = try await client.requestFriend(from: bea, to: ada)
            #expect(back.status == .created, "\(back.text)")
            #expect(client.object(back)["status"] as? String == "accepted")
            // The same row: Ada is still its sender.
            #expect(client.object(back)["id"] as? String == id)
            #expect((client.object(back)["from"] as? [String: Any])?["id"] as? String == ada.id)
            #expect(try await StreakFixtures.readers(of: bea.id, on: application.database) == [ada.id, bea.id].sorted())
        }
    }

    @Test(arguments: Backend.all)
    func befriendingNeedsAProfileOnBothSides(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { _, client in
            let ada = try await client.streakMember("ada", profile: false)
            let bea = try await client.streakMember("bea", profile: false)
            expectRefusal(try await client.requestFriend(from: ada, to: bea), 422, "profile_incomplete")
            _ = try await client.streak(.put, "/v1/streaksync/profile", token: ada.token, json: #"{"displayName":"Ada"}"#)
            // Bea may be asked before she has a name; she needs one to accept.
            let request = try await client.requestFriend(from: ada, to: bea)
            #expect(request.status == .created)
            #expect((client.object(request)["to"] as? [String: Any])?.keys.contains("displayName") == false)
            let id = client.object(request)["id"] as? String ?? ""
            expectRefusal(try await client.streak(.post, "/v1/streaksync/friendships/\(id)/accept", token: bea.token), 422, "profile_incomplete")
            _ = try await client.streak(.put, "/v1/streaksync/profile", token: bea.token, json: #"{"displayName":"Bea"}"#)
            #expect(try await client.streak(.post, "/v1/streaksync/friendships/\(id)/accept", token: bea.token).status == .ok)
        }
    }

    @Test(arguments: Backend.all)
    func eitherSideRemovesAndTheReadersFollow(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let database = application.database
            let ada = try await client.streakMember("ada")
            let bea = try await client.streakMember("bea")
            let cleo = try await client.streakMember("cleo")
            // Declined by the recipient, cancelled by the sender.
            let declined = try await client.pendingFriendship(from: ada, to: bea)
            #expect(try await client.streak(.delete, "/v1/streaksync/friendships/\(declined)", token: bea.token).status == .noContent)
            let cancelled = try await client.pendingFriendship(from: ada, to: cleo)
            #expect(try await client.streak(.delete, "/v1/streaksync/friendships/\(cancelled)", token: ada.token).status == .noContent)
            expectRefusal(try await client.streak(.delete, "/v1/streaksync/friendships/\(cancelled)", token: ada.token), 404, "friendship_not_found")
            #expect(try await StreakFixtures.events("streaksync.friendship_removed", for: cleo.id, on: database).map { $0.strings["status"] } == ["pending"])
            // A declined person may ask again later; an unfriended one too.
            let friends = try await client.befriend(bea, ada)
            #expect(try await client.publish(ada, score: 3).status == .ok)
            #expect(try await client.board(bea).entries == [ada.id])
            // A stranger cannot remove it.
            expectRefusal(try await client.streak(.delete, "/v1/streaksync/friendships/\(friends)", token: cleo.token), 404, "friendship_not_found")
            #expect(try await client.streak(.delete, "/v1/streaksync/friendships/\(friends)", token: ada.token).status == .noContent)
            #expect(try await StreakFixtures.readers(of: ada.id, on: database) == [ada.id])
            #expect(try await StreakFixtures.readers(of: bea.id, on: database) == [bea.id])
            #expect(try await client.board(bea).entries.isEmpty)
            #expect(try await StreakFixtures.events("streaksync.friendship_removed", for: bea.id, on: database).map { $0.strings["status"] } == ["pending", "accepted"])
            #expect(try await client.befriend(ada, bea).isEmpty == false)
        }
    }

    @Test(arguments: Backend.all)
    func anAccountHasAtMostFiveHundredFriends(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let database = application.database
            let pia = try await client.streakMember("pia")
            let zed = try await client.streakMember("zed")
            let yan = try await client.streakMember("yan")
            let limit = StreakSettings().maxFriends
            #expect(limit == 500)
            // Zed and Yan ask Pia while she has room.
            let zeds = try await client.pendingFriendship(from: zed, to: pia)
            _ = try await client.pendingFriendship(from: yan, to: pia)
            // Then Pia fills her list (straight into the tables: 500 people).
            for other in try await StreakFixtures.insertUsers(limit, prefix: "filler", on: database) {
                try await StreakFixtures.insertFriendship(pia.id, other, on: database)
            }
            expectRefusal(try await client.streak(.post, "/v1/streaksync/friendships/\(zeds)/accept", token: pia.token), 409, "too_many_friends")
            // Asking back (which would accept) and asking anyone new are refused as well.
            expectRefusal(try await client.requestFriend(from: pia, to: yan), 409, "too_many_friends")
            let xia = try await client.streakMember("xia")
            expectRefusal(try await client.requestFriend(from: pia, to: xia), 409, "too_many_friends")
            #expect(try await StreakFixtures.readers(of: pia.id, on: database).count == limit + 1)
            // The list shows every friend; the full side is refused on the other's acceptance too.
            let list = client.object(try await client.streak(.get, "/v1/streaksync/friends", token: pia.token))
            #expect((list["friends"] as? [Any])?.count == limit)
            let request = try await client.requestFriend(from: xia, to: pia)
            let id = client.object(request)["id"] as? String ?? ""
            expectRefusal(try await client.streak(.post, "/v1/streaksync/friendships/\(id)/accept", token: pia.token), 409, "too_many_friends")
            // One friend fewer, and Zed gets in.
            let one = try await database.sql.select().column("id").from("streaksync_friendships").where("sender_id", .equal, pia.id)
                .where("status", .equal, "accepted").first()?.decode(column: "id", as: String.self) ?? ""
            #expect(try await client.streak(.delete, "/v1/streaksync/friendships/\(one)", token: pia.token).status == .noContent)
            #expect(try await client.streak(.post, "/v1/streaksync/friendships/\(zeds)/accept", token: pia.token).status == .ok)
        }
    }

    @Test(arguments: Backend.all)
    func pendingRequestsOfOneSenderAreBounded(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let database = application.database
            let pia = try await client.streakMember("pia")
            let limit = StreakSettings().maxPendingRequests
            let others = try await StreakFixtures.insertUsers(limit, prefix: "asked", on: database)
            let insert = database.sql.insert(into: "streaksync_friendships")
                .columns("id", "pair_key", "sender_id", "recipient_id", "status", "created_at")
            for other in others {
                insert.values(SQLBind("req-\(other)"), SQLBind(pia.id < other ? "\(pia.id):\(other)" : "\(other):\(pia.id)"), SQLBind(pia.id), SQLBind(other), SQLBind("pending"), SQLBind(Int64(0)))
            }
            try await insert.run()
            let bea = try await client.streakMember("bea")
            expectRefusal(try await client.requestFriend(from: pia, to: bea), 409, "too_many_friend_requests")
            // Bea may still ask Pia.
            #expect(try await client.requestFriend(from: bea, to: pia).status == .created)
            // The outgoing box shows the newest 200 at most.
            let list = client.object(try await client.streak(.get, "/v1/streaksync/friends", token: pia.token))
            #expect((list["outgoing"] as? [Any])?.count == limit)
            #expect((list["incoming"] as? [Any])?.count == 1)
        }
    }
}
