@testable import KindredServer
@testable import KindredServerCore
@testable import SoulMateServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredCrypto
import KindredStore
import KindredTestSupport
import Testing

/// Identity keys (versioned X25519 public keys) and the partners' sealed locations.
@Suite struct SoulMateKeysTests {
    @Test(arguments: Backend.all)
    func publishingTheSameKeyKeepsItsVersionAndANewOneBumpsItAndTellsThePartner(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-02-01T09:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let couple = try await client.soulmateCouple(
                try await client.soulmateMember("keys-ada"), try await client.soulmateMember("keys-bea"), publishKeys: false
            )
            let (ada, bea) = (couple.a, couple.b)
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/identity-key", token: ada.token), 404, "no_identity_key")
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/pair/partner-key", token: bea.token), 404, "partner_key_missing")

            let published = try await client.soulmate(.put, "/v1/soulmate/identity-key", token: ada.token, json: #"{"publicKey":"\#(ada.publicKey)"}"#)
            #expect(published.status == .ok, "\(published.text)")
            let key = client.object(published)
            #expect(key["userId"] as? String == ada.id)
            #expect(key["publicKey"] as? String == ada.publicKey)
            #expect(key["keyVersion"] as? Int == 1)
            #expect(key["updatedAt"] as? String == "2026-02-01T09:00:00Z")
            // The same key again (a reinstall that kept the keychain): same version, same time.
            clock.advance(by: .seconds(60))
            let same = client.object(try await client.soulmate(.put, "/v1/soulmate/identity-key", token: ada.token, json: #"{"publicKey":"\#(ada.publicKey)"}"#))
            #expect(same["keyVersion"] as? Int == 1)
            #expect(same["updatedAt"] as? String == "2026-02-01T09:00:00Z")
            #expect(try await SoulMateFixtures.events("soulmate.key_changed", for: bea.id, on: application.database).isEmpty)
            let partnerKey = client.object(try await client.soulmate(.get, "/v1/soulmate/pair/partner-key", token: bea.token))
            #expect(partnerKey["publicKey"] as? String == ada.publicKey)

            // A new key (a new phone): version 2, announced to Bea only.
            let fresh = SoulMateIdentity()
            let bumped = client.object(try await client.soulmate(.put, "/v1/soulmate/identity-key", token: ada.token, json: #"{"publicKey":"\#(fresh.publicKeyBase64)"}"#))
            #expect(bumped["keyVersion"] as? Int == 2)
            #expect(bumped["updatedAt"] as? String == "2026-02-01T09:01:00Z")
            let changed = try await SoulMateFixtures.events("soulmate.key_changed", for: bea.id, on: application.database)
            #expect(changed.map(\.data) == [["userId": ada.id, "keyVersion": "2"]])
            #expect(try await SoulMateFixtures.events("soulmate.key_changed", for: ada.id, on: application.database).isEmpty)
            let readByBea = client.object(try await client.soulmate(.get, "/v1/soulmate/pair/partner-key", token: bea.token))
            #expect(readByBea["publicKey"] as? String == fresh.publicKeyBase64)
            #expect(readByBea["keyVersion"] as? Int == 2)
            let own = client.object(try await client.soulmate(.get, "/v1/soulmate/identity-key", token: ada.token))
            #expect(own["keyVersion"] as? Int == 2)
            let pair = client.object(try await client.soulmate(.get, "/v1/soulmate/pair", token: bea.token))
            #expect((pair["partnerKey"] as? [String: Any])?["keyVersion"] as? Int == 2)
            // Going back to the old key is another change.
            #expect(try await client.publishKey(ada) == 3)

            // A key published while unpaired is announced to nobody.
            let sam = try await client.soulmateMember("keys-sam")
            #expect(try await client.publishKey(sam) == 1)
            #expect(try await client.publishKey(sam, publicKey: SoulMateIdentity().publicKeyBase64) == 2)
            #expect(try await SoulMateFixtures.events("soulmate.key_changed", for: sam.id, on: application.database).isEmpty)
        }
    }

    @Test(arguments: Backend.all)
    func malformedKeysAreRefused(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let ada = try await client.soulmateMember("keys-bad")
            let valid = SoulMateIdentity().publicKeyBase64
            let urlSafe = valid.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            var refused = ["", "not base64!", SoulMateFixtures.base64(31), SoulMateFixtures.base64(33), String(valid.dropLast())]
            if urlSafe != valid { refused.append(urlSafe) }
            for key in refused {
                expectRefusal(
                    try await client.soulmate(.put, "/v1/soulmate/identity-key", token: ada.token, json: #"{"publicKey":"\#(key)"}"#),
                    422, "invalid_public_key", key
                )
            }
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/identity-key", token: ada.token), 404, "no_identity_key")
        }
    }

    @Test(arguments: Backend.all)
    func aSealedLocationIsKeptForThePartnerOnly(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.soulmateCouple("where")
            let (ada, bea) = (couple.a, couple.b)
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/pair/partner-location", token: bea.token), 404, "no_location")
            let sealed = try SoulMateFixtures.seal("48.85,2.35", from: ada, to: bea)
            let put = try await client.soulmate(.put, "/v1/soulmate/pair/location", token: ada.token, json: #"{"ciphertext":"\#(sealed)"}"#)
            #expect(put.status == .ok, "\(put.text)")
            #expect(client.object(put)["userId"] as? String == ada.id)
            let read = client.object(try await client.soulmate(.get, "/v1/soulmate/pair/partner-location", token: bea.token))
            #expect(read["userId"] as? String == ada.id)
            let ciphertext = read["ciphertext"] as? String ?? ""
            #expect(ciphertext == sealed)
            // Bea opens it with the pair key she derives on her side.
            #expect(try SoulMateFixtures.chatKey(bea, ada).open(ciphertext).value == "48.85,2.35")
            // Ada's own location is not what her partner-location shows.
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/pair/partner-location", token: ada.token), 404, "no_location")
            // A newer one replaces it.
            let newer = try SoulMateFixtures.seal("48.86,2.36", from: ada, to: bea)
            _ = try await client.soulmate(.put, "/v1/soulmate/pair/location", token: ada.token, json: #"{"ciphertext":"\#(newer)"}"#)
            #expect(client.object(try await client.soulmate(.get, "/v1/soulmate/pair/partner-location", token: bea.token))["ciphertext"] as? String == newer)

            for bad in ["not base64!", SoulMateFixtures.base64(27), SoulMateFixtures.base64(769), "QUJD="] {
                expectRefusal(
                    try await client.soulmate(.put, "/v1/soulmate/pair/location", token: ada.token, json: #"{"ciphertext":"\#(bad)"}"#),
                    422, "invalid_location", "\(bad.count) characters"
                )
            }
        }
    }
}
