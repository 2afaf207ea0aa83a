@testable import KindredServer
@testable import KindredServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import Testing

/// Issue 21: the key-encryption key changed in place, with no restart of the keys: replicas run
/// with the new key and the old one as `previous`, `reseal` moves every live key over, and the
/// old key is then dropped. Tokens signed before the change stay valid throughout.
@Suite struct SigningKeyResealTests {
    static let old = SigningKeyAtRestTests.kek
    static let new = SigningKeyAtRestTests.otherKEK

    /// Account settings with `current` and, during the change, `previous`.
    static func auth(_ current: KeyEncryptionKey?, previous: KeyEncryptionKey? = nil) -> AuthConfiguration {
        var auth = SigningKeyAtRestTests.auth(kek: current)
        auth.signingKeys.previousKeyEncryptionKey = previous
        return auth
    }

    @Test(arguments: Backend.all)
    func aChangeOfKeyEncryptionKeyKeepsEveryTokenValidAndLeavesNothingUnderTheOldKey(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock(start: Date())
            // Before: a key made and a rotation, both sealed under the old key.
            let before = try await TestApplication(auth: Self.auth(Self.old), clock: clock, database: database)
            let session = try await SigningKeyAtRestTests.session(on: before)
            clock.advance(by: .seconds(1))
            _ = try await SigningKeyAdministration(database: database, auth: Self.auth(Self.old), clock: clock).rotate()

            // The new key alone cannot read them (what a replica would meet without `previous`).
            await #expect(throws: SigningKeyError.wrongKeyEncryptionKey(stored: Self.old.fingerprint, configured: Self.new.fingerprint)) {
                try await SigningKeyStore(database: database, clock: clock, auth: Self.auth(Self.new)).load()
            }

            // During: a replica with both keys starts, serves the old token, and leaves the rows as they were.
            let during = try await TestApplication(auth: Self.auth(Self.new, previous: Self.old), clock: clock, database: database)
            try await during.app.test(.router) { client in
                let status = try await client.call(.get, "/v1/me", token: session.accessToken).status
                #expect(status == .ok)
            }
            #expect(try await SigningKeyAtRestTests.storedRow(database).sealedBy == Self.old.fingerprint)

            let administration = SigningKeyAdministration(database: database, auth: Self.auth(Self.new, previous: Self.old), clock: clock)
            let (resealed, keys) = try await administration.reseal()
            #expect(resealed.count == 2)
            #expect(keys.allSatisfy { $0.sealedBy == Self.new.fingerprint })
            // The secrets themselves are unchanged: the old key's tokens verify under the new seal.
            let opened = try Self.new.open(try await SigningKeyAtRestTests.storedRow(database).secret, id: "k1", algorithm: "HS256")
            #expect(opened.count == 32)
            #expect(try await administration.reseal().resealed.isEmpty)

            // After: the new key alone serves the old token; the old key alone reads nothing.
            let after = try await TestApplication(auth: Self.auth(Self.new), clock: clock, database: database)
            try await after.app.test(.router) { client in
                let status = try await client.call(.get, "/v1/me", token: session.accessToken).status
                #expect(status == .ok)
            }
            await #expect(throws: SigningKeyError.wrongKeyEncryptionKey(stored: Self.new.fingerprint, configured: Self.old.fingerprint)) {
                try await SigningKeyStore(database: database, clock: clock, auth: Self.auth(Self.old)).load()
            }
        }
    }

    @Test(arguments: Backend.all)
    func resealRefusesWithoutACurrentKeyOrWithAKeyNeitherOpens(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock(start: Date())
            _ = try await TestApplication(auth: Self.auth(Self.old), clock: clock, database: database)
            let stranger = try KeyEncryptionKey(bytes: Array(repeating: 0x99, count: 32))
            await #expect(throws: SigningKeyError.resealNeedsKeyEncryptionKey) {
                _ = try await SigningKeyStore(database: database, clock: clock, auth: Self.auth(nil)).reseal()
            }
            await #expect(throws: SigningKeyError.previousKeyEncryptionKeyIsCurrent) {
                _ = try await SigningKeyStore(database: database, clock: clock, auth: Self.auth(Self.old, previous: Self.old)).reseal()
            }
            // Sealed under `old`, but the replica names `stranger` as previous: nothing changes.
            await #expect(throws: SigningKeyError.wrongKeyEncryptionKey(stored: Self.old.fingerprint, configured: Self.new.fingerprint)) {
                _ = try await SigningKeyStore(database: database, clock: clock, auth: Self.auth(Self.new, previous: stranger)).reseal()
            }
            #expect(try await SigningKeyAtRestTests.storedRow(database).sealedBy == Self.old.fingerprint)
        }
    }
}
