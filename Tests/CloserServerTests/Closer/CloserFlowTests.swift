@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// Pairing, the daily question, sealed answers, per-device release keys and the rhythm, over
/// HTTP on both backends.
@Suite struct CloserFlowTests {
    @Test(arguments: Backend.all)
    func pairAnswerReleaseAndReveal(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let pair = try await client.closerPair("flow")
            let a = pair.inviter.accessToken, b = pair.acceptor.accessToken
            let aID = pair.inviter.user.id, bID = pair.acceptor.user.id
            let couple = client.object(try await client.call(.get, "/v1/closer/couple", token: b))
            #expect(couple["id"] as? String == pair.coupleID)
            #expect(couple["userIds"] as? [String] == [aID, bID])
            #expect(couple["encryptionVersion"] as? Int == 2)
            #expect(couple["timeZone"] as? String == "America/Chicago")

            // No question yet; on demand assigns one, then the same one again.
            let none = try await client.call(.get, "/v1/closer/couples/\(pair.coupleID)/today", token: a)
            #expect(none.status == .notFound)
            #expect(none.errorCode == "no_question_assigned")
            let assigned = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: a)
            #expect(assigned.status == .created)
            let again = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: b)
            #expect(again.status == .ok)
            let day = client.object(assigned)
            let date = day["date"] as? String ?? ""
            #expect(client.object(again)["questionId"] as? String == day["questionId"] as? String)

            // Devices: one for A, two for B.
            for (token, device) in [(a, "a-phone"), (b, "b-phone"), (b, "b-tablet")] {
                let put = try await client.call(
                    .put, "/v1/closer/devices/\(device)", token: token,
                    json: #"{"publicKey":"\#(try CloserFixtures.publicKey())","platform":"linux"}"#
                )
                #expect(put.status == .created)
            }
            let bDevices = client.object(try await client.call(.get, "/v1/closer/users/\(bID)/devices", token: a))
            #expect((bDevices["devices"] as? [[String: Any]])?.compactMap { $0["deviceId"] as? String } == ["b-phone", "b-tablet"])

            // A answers; B sees that it exists but not its content.
            let answerPath = "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers"
            let aAnswer = try await client.call(.put, "\(answerPath)/\(aID)", token: a, json: CloserFixtures.sealedAnswer())
            #expect(aAnswer.status == .created, "\(String(buffer: aAnswer.body))")
            let twice = try await client.call(.put, "\(answerPath)/\(aID)", token: a, json: CloserFixtures.sealedAnswer())
            #expect(twice.errorCode == "answer_exists")
            let early = client.object(try await client.call(.get, "\(answerPath)/\(aID)", token: b))
            #expect(early["contentWithheld"] as? Bool == true)
            #expect(early["encryptedPayload"] == nil)
            let tooEarly = try await client.call(
                .post, "\(answerPath)/\(aID)/release-keys", token: a,
                json: #"{"keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(CloserFixtures.keybox())"}]}"#
            )
            #expect(tooEarly.errorCode == "answers_incomplete")

            // B answers: both see both; the rhythm starts.
            let bAnswer = try await client.call(.put, "\(answerPath)/\(bID)", token: b, json: CloserFixtures.sealedAnswer())
            #expect(bAnswer.status == .created)
            let late = client.object(try await client.call(.get, "\(answerPath)/\(aID)", token: b))
            #expect(late["contentWithheld"] as? Bool == false)
            #expect((late["encryptedPayload"] as? String)?.hasPrefix("sealed:v1:") == true)
            let after = client.object(try await client.call(.get, "/v1/closer/couples/\(pair.coupleID)", token: a))
            #expect(after["streakCount"] as? Int == 1)
            #expect(after["lastAnsweredDate"] as? String == date)

            // A releases to both of B's devices; only B reads them, per device.
            let keyPhone = CloserFixtures.keybox(), keyTablet = CloserFixtures.keybox()
            let release = try await client.call(
                .post, "\(answerPath)/\(aID)/release-keys", token: a,
                json: #"{"keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(keyPhone)"},{"recipientDeviceId":"b-tablet","encryptedAnswerKey":"\#(keyTablet)"}]}"#
            )
            #expect(release.status == .created, "\(String(buffer: release.body))")
            let byB = client.object(try await client.call(.get, "/v1/closer/couples/\(pair.coupleID)/days/\(date)/release-keys?deviceId=b-tablet", token: b))
            #expect((byB["keys"] as? [[String: Any]])?.compactMap { $0["encryptedAnswerKey"] as? String } == [keyTablet])
            let byA = client.object(try await client.call(.get, "/v1/closer/couples/\(pair.coupleID)/days/\(date)/release-keys?deviceId=b-tablet", token: a))
            #expect((byA["keys"] as? [[String: Any]])?.isEmpty == true)
            // The same upload again (a retry after a lost answer) stores nothing new and lists the same keys.
            let resent = try await client.call(
                .post, "\(answerPath)/\(aID)/release-keys", token: a,
                json: #"{"keys":[{"recipientDeviceId":"b-tablet","encryptedAnswerKey":"\#(keyTablet)"},{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(keyPhone)"}]}"#
            )
            #expect(resent.status == .created, "\(String(buffer: resent.body))")
            let listed = (client.object(resent)["keys"] as? [[String: Any]])?.compactMap { $0["encryptedAnswerKey"] as? String } ?? []
            #expect(Set(listed) == [keyPhone, keyTablet] && listed.count == 2)
            let changed = try await client.call(
                .post, "\(answerPath)/\(aID)/release-keys", token: a,
                json: #"{"keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(CloserFixtures.keybox())"}]}"#
            )
            #expect(changed.errorCode == "release_key_exists")
            let released = client.object(try await client.call(.get, "\(answerPath)/\(aID)", token: a))
            #expect(released["answerKeyReleased"] as? Bool == true)
            let reveal = try await client.call(.patch, "\(answerPath)/\(bID)", token: b, json: #"{"isRevealed":true}"#)
            #expect(client.object(reveal)["isRevealed"] as? Bool == true)
            let undo = try await client.call(.patch, "\(answerPath)/\(bID)", token: b, json: #"{"isRevealed":false}"#)
            #expect(undo.errorCode == "reveal_irreversible")

            // History lists the date with both answers.
            let history = client.object(try await client.call(.get, "/v1/closer/couples/\(pair.coupleID)/history", token: a))
            let days = history["days"] as? [[String: Any]] ?? []
            #expect(days.map { $0["date"] as? String } == [date])
            #expect((days.first?["answers"] as? [Any])?.count == 2)
        }
    }

    @Test(arguments: Backend.all)
    func acceptRefusalsAndRateLimit(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let inviter = try await client.signUp("limit-a@example.com")
            let stranger = try await client.signUp("limit-b@example.com")
            let code = try await client.closerInvite(inviter.accessToken, verifier: CloserFixtures.verifier())
            let own = try await client.call(.post, "/v1/closer/invites/\(code)/accept", token: inviter.accessToken, json: #"{"verifier":"\#(CloserFixtures.verifier())"}"#)
            #expect(own.errorCode == "own_invite")
            let anonymous = try await client.anonymous()
            let anon = try await client.call(.post, "/v1/closer/invites/\(code)/accept", token: anonymous.accessToken, json: "{}")
            #expect(anon.errorCode == "upgrade_required")
            var codes: [String?] = []
            for _ in 0..<10 {
                let wrong = try await client.call(
                    .post, "/v1/closer/invites/\(code)/accept", token: stranger.accessToken, json: #"{"verifier":"\#(CloserFixtures.verifier())"}"#
                )
                codes.append(wrong.errorCode)
            }
            #expect(codes == Array(repeating: "invite_verifier_mismatch", count: 10))
            let eleventh = try await client.call(
                .post, "/v1/closer/invites/\(code)/accept", token: stranger.accessToken, json: #"{"verifier":"\#(CloserFixtures.verifier())"}"#
            )
            #expect(eleventh.status == .tooManyRequests)
            #expect(eleventh.headers[.retryAfter].flatMap(Int.init).map { (1...3600).contains($0) } == true)
            let other = try await client.call(.get, "/v1/closer/invites/\(code)", token: stranger.accessToken)
            #expect(other.errorCode == "invite_not_found")
        }
    }

    @Test(arguments: Backend.all)
    func racingAcceptorsMakeOneCouple(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let inviter = try await client.signUp("race-a@example.com")
            var acceptors: [SessionBody] = []
            for i in 0..<4 { acceptors.append(try await client.signUp("race-\(i)@example.com")) }
            let verifier = CloserFixtures.verifier()
            let code = try await client.closerInvite(inviter.accessToken, verifier: verifier)
            let statuses = try await withThrowingTaskGroup(of: String?.self) { group in
                for acceptor in acceptors {
                    group.addTask {
                        let r = try await client.call(.post, "/v1/closer/invites/\(code)/accept", token: acceptor.accessToken, json: #"{"verifier":"\#(verifier)"}"#)
                        return r.status == .created ? "created" : r.errorCode
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == "created" }.count == 1)
            #expect(statuses.filter { $0 == "invite_used" }.count == 3)
            let couples = try await app.database.sql.raw("SELECT COUNT(*) AS n FROM closer_couples").first()?.decode(column: "n", as: Int.self)
            #expect(couples == 1)
        }
    }

    @Test(arguments: Backend.all)
    func leavingDeletesTheCoupleAndTellsThePartner(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let pair = try await client.closerPair("leave")
            _ = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: pair.inviter.accessToken)
            let left = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/leave", token: pair.acceptor.accessToken)
            #expect(left.status == .noContent)
            let gone = try await client.call(.get, "/v1/closer/couple", token: pair.inviter.accessToken)
            #expect(gone.errorCode == "not_paired")
            let sql = app.database.sql
            for table in ["closer_couples", "closer_members", "closer_days"] {
                let n = try await sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self)
                #expect(n == 0, "\(table)")
            }
            let told = try await sql.raw("SELECT COUNT(*) AS n FROM kindred_notifications WHERE user_id = \(bind: pair.inviter.user.id) AND type = 'partner_left'")
                .first()?.decode(column: "n", as: Int.self)
            #expect(told == 1)
        }
    }

    @Test(arguments: Backend.all)
    func gentleRemindersAreLimited(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let pair = try await client.closerPair("gentle")
            let first = client.object(try await client.call(.post, "/v1/closer/reminders/gentle", token: pair.inviter.accessToken))
            #expect(first["allowed"] as? Bool == true)
            let second = client.object(try await client.call(.post, "/v1/closer/reminders/gentle", token: pair.acceptor.accessToken))
            #expect(second["allowed"] as? Bool == false)
            #expect((second["retryAfterMinutes"] as? Int).map { (1...1440).contains($0) } == true)
            for _ in 0..<3 { _ = try await client.call(.post, "/v1/closer/reminders/gentle", token: pair.inviter.accessToken) }
            let sixth = client.object(try await client.call(.post, "/v1/closer/reminders/gentle", token: pair.inviter.accessToken))
            #expect(sixth["allowed"] as? Bool == false)
            let seventh = client.object(try await client.call(.post, "/v1/closer/reminders/gentle", token: pair.inviter.accessToken))
            #expect(seventh["allowed"] as? Bool == false)
            #expect((seventh["retryAfterMinutes"] as? Int).map { (1...60).contains($0) } == true)
        }
    }
}

/// Account deletion and export reach every Closer table.
@Suite struct CloserUserDataTests {
    @Test(arguments: Backend.all)
    func deletingAMemberDeletesTheCoupleAndExportListsIt(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let pair = try await client.closerPair("erase")
            let today = client.object(try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: pair.inviter.accessToken))
            let date = today["date"] as? String ?? ""
            let answered = try await client.call(
                .put, "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers/\(pair.acceptor.user.id)", token: pair.acceptor.accessToken,
                json: CloserFixtures.sealedAnswer()
            )
            #expect(answered.status == .created)
            let export = client.object(try await client.call(.get, "/v1/me/export", token: pair.acceptor.accessToken))
            let closer = (export["data"] as? [String: Any])?["closer"] as? [String: Any]
            #expect((closer?["closer_couples"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [pair.coupleID])
            #expect((closer?["closer_answers"] as? [Any])?.count == 1)
            let deleted = try await client.call(.delete, "/v1/me", token: pair.inviter.accessToken)
            #expect(deleted.status == .noContent)
            let sql = app.database.sql
            for table in ["closer_couples", "closer_members", "closer_days", "closer_answers"] {
                let n = try await sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self)
                #expect(n == 0, "\(table)")
            }
            let partner = try await client.call(.get, "/v1/closer/couple", token: pair.acceptor.accessToken)
            #expect(partner.errorCode == "not_paired")
        }
    }
}
