@testable import KindredServer
@testable import KindredServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import Logging
import SQLKit
import Synchronization
import Testing

/// Issue 21, item 4: `kindred keys rotate` and `retire`, step by step, and replicas (two
/// servers on one database, SQLite file and PostgreSQL) picking the changes up.
@Suite struct SigningKeyRotationTests {
    static let kek = SigningKeyAtRestTests.kek

    /// The tests' account settings with the key-encryption key and `refresh` as the refresh interval.
    static func auth(refresh: Duration = .seconds(30)) -> AuthConfiguration {
        var auth = SigningKeyAtRestTests.auth(kek: kek)
        auth.signingKeys.refreshInterval = refresh
        return auth
    }

    /// The states of every key, by id.
    static func states(_ database: Database) async throws -> [String: String] {
        let administration = SigningKeyAdministration(database: database, auth: auth())
        return Dictionary(uniqueKeysWithValues: try await administration.list().map { ($0.id, $0.state) })
    }

    /// `GET /v1/me` with `token`: nil when it is accepted, else the error's code and message.
    static func refusal(of token: String, by client: some TestClientProtocol) async throws -> String? {
        let response = try await client.call(.get, "/v1/me", token: token)
        if response.status == .ok { return nil }
        let body = try response.decode(ErrorBody.self)
        return "\(body.error.code): \(body.error.message)"
    }

    @Test(arguments: Backend.all)
    func aRotationSignsWithTheNewKeyKeepsThePreviousValidAndARetiredKeyIsRefused(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock(start: Date())
            let app = try await TestApplication(auth: Self.auth(), clock: clock, database: database)
            let administration = SigningKeyAdministration(database: database, auth: Self.auth(), clock: clock)
            try await app.app.test(.router) { client in
                let old = try await client.anonymous()
                #expect(SigningKeyRing.keyID(of: old.accessToken) == "k1")

                // Step 1: rotate (a second after k1 was made, so the list's order is certain).
                // Every key stays sealed; k1 becomes previous.
                clock.advance(by: .seconds(1))
                let (newKey, keys) = try await administration.rotate()
                #expect(newKey != "k1")
                #expect(keys.map(\.id) == ["k1", newKey])
                #expect(keys.map(\.state) == ["previous", "active"])
                #expect(keys.allSatisfy { $0.sealed && $0.sealedBy == Self.kek.fingerprint })

                // Step 2: after the refresh interval, new tokens are signed with the new key,
                // and tokens of the previous key stay valid.
                clock.advance(by: .seconds(31))
                let new = try await client.anonymous()
                #expect(SigningKeyRing.keyID(of: new.accessToken) == newKey)
                #expect(try await Self.refusal(of: old.accessToken, by: client) == nil)
                #expect(try await Self.refusal(of: new.accessToken, by: client) == nil)
                let refreshed = try await client.refresh(old.refreshToken).decode(SessionBody.self)
                #expect(SigningKeyRing.keyID(of: refreshed.accessToken) == newKey)

                // Step 3: the active key cannot be retired; the previous one can.
                await #expect(throws: SigningKeyError.cannotRetireActive(newKey)) { try await administration.retire(id: newKey) }
                await #expect(throws: SigningKeyError.unknownKey("k9")) { try await administration.retire(id: "k9") }
                let afterRetire = try await administration.retire(id: "k1")
                #expect(afterRetire.map(\.state) == ["retired", "active"])
                #expect(try await SigningKeyAtRestTests.storedRow(database, id: "k1").secret == "")
                await #expect(throws: SigningKeyError.alreadyRetired("k1")) { try await administration.retire(id: "k1") }

                // Step 4: from the next refresh on, the retired key's tokens are refused.
                clock.advance(by: .seconds(31))
                #expect(
                    try await Self.refusal(of: new.accessToken, by: client) == nil
                )
                let oldAgain = try await client.call(.get, "/v1/me", token: old.accessToken)
                #expect(oldAgain.status == .unauthorized)
                #expect(try oldAgain.decode(ErrorBody.self).error.message == "the access token's key was retired")
                #expect(try await Self.refusal(of: refreshed.accessToken, by: client) == nil)
            }
        }
    }

    @Test(arguments: Backend.all)
    func previousKeysPastEveryTokensLifetimeAreRetiredByTheNextRotation(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock(start: Date())
            _ = try await TestApplication(auth: Self.auth(), clock: clock, database: database)
            let administration = SigningKeyAdministration(database: database, auth: Self.auth(), clock: clock)
            clock.advance(by: .seconds(1))
            let (second, _) = try await administration.rotate()
            // 15 minutes (the access-token lifetime) + 2 × 30 s later, k1 signed nothing still valid.
            clock.advance(by: .seconds(900 + 60 - 1))
            let (third, keys) = try await administration.rotate()
            #expect(keys.map(\.id) == ["k1", second, third])
            #expect(keys.map(\.state) == ["previous", "previous", "active"])
            clock.advance(by: .seconds(2))
            let (fourth, later) = try await administration.rotate()
            #expect(later.map(\.id) == ["k1", second, third, fourth])
            #expect(later.map(\.state) == ["retired", "previous", "previous", "active"])
            // After a leak: every other key retired at once (a second later, so the list's
            // creation order is not a tie).
            clock.advance(by: .seconds(1))
            let (fifth, leak) = try await administration.rotate(retirePrevious: true)
            #expect(leak.map(\.id) == ["k1", second, third, fourth, fifth])
            #expect(leak.map(\.state) == ["retired", "retired", "retired", "retired", "active"])
        }
    }

    @Test(arguments: Backend.all)
    func concurrentRotationsLeaveExactlyOneActiveKey(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            _ = try await TestApplication(auth: Self.auth(), database: database)
            let administration = SigningKeyAdministration(database: database, auth: Self.auth())
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<6 { group.addTask { try await administration.rotate().newKey } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(Set(ids).count == 6)
            let states = try await Self.states(database)
            #expect(states.count == 7)
            #expect(states.values.filter { $0 == "active" }.count == 1)
            #expect(states.values.filter { $0 == "previous" }.count == 6)
        }
    }

    @Test(arguments: Backend.all)
    func twoReplicasPickUpARotationAndARetirement(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock(start: Date())
            // Replica A re-reads every 30 s; replica B only every hour, so it learns of the new
            // key from the first token that names it.
            let a = try await TestApplication(auth: Self.auth(), clock: clock, database: database)
            let b = try await TestApplication(auth: Self.auth(refresh: .seconds(3600)), clock: clock, database: database)
            let administration = SigningKeyAdministration(database: database, auth: Self.auth(), clock: clock)
            try await a.app.test(.router) { clientA in
                try await b.app.test(.router) { clientB in
                    let old = try await clientB.anonymous()
                    #expect(try await Self.refusal(of: old.accessToken, by: clientA) == nil)

                    let (newKey, _) = try await administration.rotate()
                    clock.advance(by: .seconds(31))
                    // A signs with the new key; B, which has not re-read, accepts it at once.
                    let fromA = try await clientA.anonymous()
                    #expect(SigningKeyRing.keyID(of: fromA.accessToken) == newKey)
                    #expect(try await Self.refusal(of: fromA.accessToken, by: clientB) == nil)
                    // B now knows the new key and signs with it too.
                    let fromB = try await clientB.anonymous()
                    #expect(SigningKeyRing.keyID(of: fromB.accessToken) == newKey)
                    #expect(try await Self.refusal(of: fromB.accessToken, by: clientA) == nil)
                    #expect(try await Self.refusal(of: old.accessToken, by: clientA) == nil)
                    #expect(try await Self.refusal(of: old.accessToken, by: clientB) == nil)

                    _ = try await administration.retire(id: "k1")
                    // Within its refresh interval a replica still accepts the retired key…
                    #expect(try await Self.refusal(of: old.accessToken, by: clientA) == nil)
                    clock.advance(by: .seconds(31))
                    // …and refuses it from its next read on: A after 30 s, B after an hour.
                    let retired = "invalid_token: the access token's key was retired"
                    #expect(try await Self.refusal(of: old.accessToken, by: clientA) == retired)
                    #expect(try await Self.refusal(of: old.accessToken, by: clientB) == nil)
                    clock.advance(by: .seconds(3600))
                    #expect(try await Self.refusal(of: old.accessToken, by: clientB) == retired)
                    // The new key still verifies everywhere (a fresh token: fromA has expired).
                    let fresh = try await clientA.anonymous()
                    #expect(try await Self.refusal(of: fresh.accessToken, by: clientB) == nil)
                }
            }
        }
    }

    @Test func madeUpKeyIDsReReadTheKeysAtMostOncePerInterval() async throws {
        try await TestDatabases.with(.sqlite) { database in
            let clock = TestClock(start: Date())
            _ = try await TestApplication(auth: Self.auth(), clock: clock, database: database)
            var auth = Self.auth()
            auth.signingKeys.unknownKeyReloadInterval = .seconds(3600)
            let ring = try await SigningKeyRing.start(
                store: SigningKeyStore(database: database, clock: clock, auth: auth), logger: Logger(label: "test")
            )
            #expect(await ring.reloadForUnknownKey())
            for _ in 0..<100 { #expect(!(await ring.reloadForUnknownKey())) }
        }
    }

    @Test func theMigrationKeepsTheNewestOfSeveralPlaintextKeysActive() async throws {
        try await TestDatabases.with(.sqlite) { database in
            let quiet = Logger(label: "test")
            let before = try Migrator([
                StoreMigrations.domain, MigrationDomain("accounts", Array(AccountsSchema.migrations.prefix(3))),
            ])
            try await before.migrate(database, logger: quiet)
            for (id, created) in [("k1", Int64(1000)), ("k2", Int64(2000))] {
                try await database.sql.insert(into: "kindred_signing_keys").columns("id", "algorithm", "secret", "created_at")
                    .values(SQLBind(id), SQLBind("HS256"), SQLBind(String(repeating: "A", count: 43)), SQLBind(created)).run()
            }
            try await Migrator(ServerMigrations.all).migrate(database, logger: quiet)
            let rows = try await database.sql.select().columns("id", "state", "superseded_at", "sealed_by")
                .from("kindred_signing_keys").orderBy("id").all()
            #expect(try rows.map { try $0.decode(column: "state", as: String.self) } == ["previous", "active"])
            #expect(try rows.map { try $0.decode(column: "superseded_at", as: Int64?.self) } == [2000, nil])
            #expect(try rows.map { try $0.decode(column: "sealed_by", as: String?.self) } == [nil, nil])
        }
    }
}
