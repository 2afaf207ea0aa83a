@testable import KindredServer
@testable import KindredServerCore
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import KindredCrypto
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import SQLKit
import Synchronization
import Testing

/// Issue 21, item 4: the access-token signing keys are sealed under a key-encryption key that is
/// not in the database, so a copy of the database cannot mint tokens. On SQLite (a file) and
/// PostgreSQL.
@Suite struct SigningKeyAtRestTests {
    static let kek = try! KeyEncryptionKey(bytes: Array(repeating: 0x42, count: 32))
    static let otherKEK = try! KeyEncryptionKey(bytes: Array(repeating: 0x17, count: 32))

    /// The tests' account settings with `kek` (nil: plaintext) and `production` mode.
    static func auth(kek: KeyEncryptionKey?, production: Bool = false) -> AuthConfiguration {
        var auth = TestApplication.testAuth
        auth.signingKeys.keyEncryptionKey = kek
        auth.signingKeys.requireKeyEncryptionKey = production
        return auth
    }

    /// `kindred_signing_keys`' stored secret and `sealed_by` of `id`.
    static func storedRow(_ database: Database, id: String = "k1") async throws -> (secret: String, sealedBy: String?) {
        let row = try #require(
            try await database.sql.select().columns("secret", "sealed_by").from("kindred_signing_keys")
                .where("id", .equal, id).first()
        )
        return (try row.decode(column: "secret", as: String.self), try row.decode(column: "sealed_by", as: String?.self))
    }

    /// Signs up anonymously on `app` and returns the session.
    static func session(on app: TestApplication) async throws -> SessionBody {
        let captured = Mutex<SessionBody?>(nil)
        try await app.app.test(.router) { client in
            let session = try await client.anonymous()
            captured.withLock { $0 = session }
        }
        return try #require(captured.withLock { $0 })
    }

    @Test(arguments: Backend.all)
    func aDatabaseBackupAloneDoesNotRevealTheKey(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let app = try await TestApplication(auth: Self.auth(kek: Self.kek), database: database)
            let session = try await Self.session(on: app)
            #expect(SigningKeyRing.keyID(of: session.accessToken) == "k1")

            let stored = try await Self.storedRow(database)
            #expect(stored.sealedBy == Self.kek.fingerprint)
            // The real key, as the server opened it with the key-encryption key.
            let keys = try await SigningKeyStore(database: database, clock: app.clock, auth: Self.auth(kek: Self.kek)).load()
            let key = try #require(keys.codec.keys["k1"]).withUnsafeBytes { Array($0) }
            let storedBytes = try Base64.decode(stored.secret, alphabet: .urlSafeNoPadding)
            #expect(storedBytes.count == 12 + 32 + 16)
            #expect(!storedBytes.indices.contains { storedBytes[$0...].starts(with: key) })
            #expect(!stored.secret.contains(Base64.encode(key, alphabet: .urlSafeNoPadding)))
            // Whoever holds only the database: the stored bytes do not sign our tokens…
            for candidate in [storedBytes, Array(storedBytes.prefix(32)), Array(storedBytes.dropFirst(12).prefix(32))] {
                let forger = AccessTokenCodec(keys: ["k1": SymmetricKey(data: candidate)], currentKeyID: "k1")
                #expect(throws: AccessTokenCodec.Refusal.invalid("the access token's signature is wrong")) {
                    try forger.verifyAnew(session.accessToken, now: app.clock.now())
                }
            }
            // …and the keys do not load without the key-encryption key.
            await #expect(throws: SigningKeyError.keysAreSealed(fingerprint: Self.kek.fingerprint)) {
                try await SigningKeyStore(database: database, clock: app.clock, auth: Self.auth(kek: nil)).load()
            }
        }
    }

    @Test(arguments: Backend.all)
    func plaintextKeysAreSealedAtTheFirstStartWithAKeyEncryptionKey(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock(start: Date())
            let plain = try await TestApplication(auth: Self.auth(kek: nil), clock: clock, database: database)
            let session = try await Self.session(on: plain)
            let before = try await Self.storedRow(database)
            #expect(before.sealedBy == nil)
            let beforeBytes = try Base64.decode(before.secret, alphabet: .urlSafeNoPadding)
            #expect(beforeBytes.count == 32)

            let sealed = try await TestApplication(auth: Self.auth(kek: Self.kek), clock: clock, database: database)
            let after = try await Self.storedRow(database)
            #expect(after.sealedBy == Self.kek.fingerprint)
            #expect(after.secret != before.secret)
            let opened = try Self.kek.open(after.secret, id: "k1", algorithm: "HS256")
            let original = try Base64.decode(before.secret, alphabet: .urlSafeNoPadding)
            #expect(opened == original)
            // The same key, so tokens signed before the sealing still work.
            try await sealed.app.test(.router) { client in
                let status = try await client.call(.get, "/v1/me", token: session.accessToken).status
                #expect(status == .ok)
            }
            // A third start does not seal again.
            _ = try await TestApplication(auth: Self.auth(kek: Self.kek), clock: clock, database: database)
            #expect(try await Self.storedRow(database).secret == after.secret)
        }
    }

    @Test(arguments: Backend.all)
    func productionModeWithoutAKeyEncryptionKeyRefusesToStart(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            await #expect(throws: SigningKeyError.keyEncryptionKeyRequired) {
                _ = try await TestApplication(auth: Self.auth(kek: nil, production: true), database: database)
            }
            // Nothing was written in plaintext.
            #expect(try await database.sql.count("kindred_signing_keys") == 0)
            _ = try await TestApplication(auth: Self.auth(kek: Self.kek, production: true), database: database)
            #expect(try await Self.storedRow(database).sealedBy == Self.kek.fingerprint)
        }
    }

    @Test(arguments: Backend.all)
    func aWrongOrMissingKeyEncryptionKeyIsATypedStartUpError(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            _ = try await TestApplication(auth: Self.auth(kek: Self.kek), database: database)
            await #expect(
                throws: SigningKeyError.wrongKeyEncryptionKey(stored: Self.kek.fingerprint, configured: Self.otherKEK.fingerprint)
            ) {
                _ = try await TestApplication(auth: Self.auth(kek: Self.otherKEK), database: database)
            }
            await #expect(throws: SigningKeyError.keysAreSealed(fingerprint: Self.kek.fingerprint)) {
                _ = try await TestApplication(auth: Self.auth(kek: nil), database: database)
            }
            // A sealed secret moved onto another row does not open.
            let k1 = try await Self.storedRow(database)
            try await database.sql.insert(into: "kindred_signing_keys")
                .columns("id", "algorithm", "secret", "created_at", "state", "sealed_by")
                .values(SQLBind("k0"), SQLBind("HS256"), SQLBind(k1.secret), SQLBind(Int64(0)), SQLBind("previous"), SQLBind(k1.sealedBy))
                .run()
            await #expect(throws: SigningKeyError.cannotOpen(keyID: "k0")) {
                _ = try await TestApplication(auth: Self.auth(kek: Self.kek), database: database)
            }
        }
    }
}
