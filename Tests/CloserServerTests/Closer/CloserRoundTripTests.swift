@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// What saves a device round trips: the date's keyboxes returned with the date (`?deviceId=`),
/// `missingRecipients` after an upload, and `isRevealed` recorded with the release.
@Suite struct CloserRoundTripTests {
    @Test(arguments: Backend.all)
    func theDateCarriesKeyboxesAndTheReleaseReportsMissingDevicesAndRecordsTheReveal(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let pair = try await client.closerPair("trips")
            let a = pair.inviter.accessToken, b = pair.acceptor.accessToken
            let aID = pair.inviter.user.id, bID = pair.acceptor.user.id
            let today = "/v1/closer/couples/\(pair.coupleID)/today"
            let day = client.object(try await client.call(.post, today, token: a))
            let date = try #require(day["date"] as? String)
            for (token, device) in [(a, "a-phone"), (a, "a-tablet"), (b, "b-phone")] {
                let put = try await client.call(
                    .put, "/v1/closer/devices/\(device)", token: token,
                    json: #"{"publicKey":"\#(try CloserFixtures.publicKey())","platform":"linux"}"#
                )
                #expect(put.status == .created)
            }
            let answers = "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers"
            #expect(try await client.call(.put, "\(answers)/\(aID)", token: a, json: CloserFixtures.sealedAnswer()).status == .created)
            #expect(try await client.call(.put, "\(answers)/\(bID)", token: b, json: CloserFixtures.sealedAnswer()).status == .created)

            // Without deviceId the date has no releaseKeys; with one, the (empty) list; a malformed one is 400.
            #expect(client.object(try await client.call(.get, today, token: b))["releaseKeys"] == nil)
            #expect((client.object(try await client.call(.get, "\(today)?deviceId=b-phone", token: b))["releaseKeys"] as? [Any])?.isEmpty == true)
            #expect(try await client.call(.get, "\(today)?deviceId=no%20spaces", token: b).status == .badRequest)

            // A releases to B's phone only: the answer names A's tablet as still missing (not A's phone, the sender).
            let keyForB = CloserFixtures.keybox()
            let release = try await client.call(
                .post, "\(answers)/\(aID)/release-keys", token: a,
                json: #"{"senderDeviceId":"a-phone","keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(keyForB)"}]}"#
            )
            #expect(release.status == .created, "\(String(buffer: release.body))")
            let missing = client.object(release)["missingRecipients"] as? [[String: Any]]
            #expect(missing?.map { [$0["userId"] as? String, $0["deviceId"] as? String] } == [[aID, "a-tablet"]])
            let withoutSender = try await client.call(
                .post, "\(answers)/\(aID)/release-keys", token: a,
                json: #"{"keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(keyForB)"}]}"#
            )
            #expect(withoutSender.status == .created)
            #expect(client.object(withoutSender)["missingRecipients"] == nil)

            // B's read of the date carries A's keybox for B's phone (and nothing for another device).
            let dated = "/v1/closer/couples/\(pair.coupleID)/days/\(date)"
            let seen = client.object(try await client.call(.get, "\(dated)?deviceId=b-phone", token: b))
            #expect((seen["releaseKeys"] as? [[String: Any]])?.map { $0["encryptedAnswerKey"] as? String } == [keyForB])
            #expect((seen["releaseKeys"] as? [[String: Any]])?.map { $0["senderUserId"] as? String } == [aID])
            let otherDevice = client.object(try await client.call(.get, "\(dated)?deviceId=a-phone", token: b))
            #expect((otherDevice["releaseKeys"] as? [Any])?.isEmpty == true)

            // B opened A's answer, then releases to both of A's devices and records the reveal in one write.
            let both = try await client.call(
                .post, "\(answers)/\(bID)/release-keys", token: b,
                json: #"{"senderDeviceId":"b-phone","isRevealed":true,"keys":[{"recipientDeviceId":"a-phone","encryptedAnswerKey":"\#(CloserFixtures.keybox())"},{"recipientDeviceId":"a-tablet","encryptedAnswerKey":"\#(CloserFixtures.keybox())"}]}"#
            )
            #expect(both.status == .created, "\(String(buffer: both.body))")
            #expect((client.object(both)["missingRecipients"] as? [Any])?.isEmpty == true)
            let bAnswer = client.object(try await client.call(.get, "\(answers)/\(bID)", token: b))
            #expect(bAnswer["answerKeyReleased"] as? Bool == true)
            #expect(bAnswer["isRevealed"] as? Bool == true)
            let aAnswer = client.object(try await client.call(.get, "\(answers)/\(aID)", token: a))
            #expect(aAnswer["isRevealed"] as? Bool == false)

            // Threads have no reveal flag.
            let thread = client.object(
                try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/threads", token: a, json: #"{"questionId":"\#(day["questionId"] as? String ?? "")"}"#)
            )
            let threadPath = "/v1/closer/couples/\(pair.coupleID)/threads/\(thread["id"] as? String ?? "")"
            for (token, user) in [(a, aID), (b, bID)] {
                #expect(try await client.call(.put, "\(threadPath)/messages/\(user)", token: token, json: CloserFixtures.sealedMessage()).status == .created)
            }
            let flagged = try await client.call(
                .post, "\(threadPath)/messages/\(aID)/release-keys", token: a,
                json: #"{"isRevealed":true,"keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(CloserFixtures.keybox())"}]}"#
            )
            #expect(flagged.status == .badRequest)
            #expect(flagged.errorCode == "invalid_release_key")
        }
    }
}
