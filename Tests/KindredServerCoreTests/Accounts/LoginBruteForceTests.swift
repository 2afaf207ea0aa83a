@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Issue 21, item 1: the login limits hold against concurrent guesses, because each attempt is
/// reserved before its password hash is computed.
@Suite struct LoginBruteForceTests {
    /// The statuses of `count` concurrent `POST /v1/auth/login` calls for `email`.
    static func concurrentLogIns(
        _ client: any TestClientProtocol, email: String, password: String, count: Int
    ) async throws -> [HTTPResponse.Status: Int] {
        try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for _ in 0..<count {
                group.addTask { try await client.logIn(email, password: password).status }
            }
            var statuses: [HTTPResponse.Status: Int] = [:]
            for try await status in group { statuses[status, default: 0] += 1 }
            return statuses
        }
    }

    /// The events recorded under `key` in the shared rate-limit table.
    static func events(_ database: Database, key: String) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("kindred_rate_limit_events").where("key", .equal, key)
            .first()?.decode(column: "n", as: Int.self) ?? 0
    }

    @Test(arguments: Backend.all)
    func twoHundredConcurrentGuessesForOneAccountEvaluateAtMostTheLimit(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            _ = try await client.signUp("grace@example.com")
            let statuses = try await Self.concurrentLogIns(client, email: "grace@example.com", password: "guess guess", count: 200)
            let limit = TestApplication.testAuth.loginFailuresPerAccount
            #expect(statuses[.unauthorized] == limit)
            #expect(statuses[.tooManyRequests] == 200 - limit)
            #expect(statuses.values.reduce(0, +) == 200)
            let accountKey = "login-failures:closer:\(TokenService.hash("grace@example.com"))"
            #expect(try await Self.events(application.database, key: accountKey) == limit)
            // The account stays locked, even for its right password.
            #expect(try await client.logIn("grace@example.com").status == .tooManyRequests)
        }
    }

    @Test func twoHundredConcurrentGuessesFromOneAddressEvaluateAtMostTheAddressLimit() async throws {
        try await TestApplication.run(on: .sqlite) { application, client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for attempt in 0..<200 {
                    group.addTask { try await client.logIn("victim\(attempt)@example.com", password: "guess guess").status }
                }
                var statuses: [HTTPResponse.Status: Int] = [:]
                for try await status in group { statuses[status, default: 0] += 1 }
                return statuses
            }
            let limit = TestApplication.testAuth.loginFailuresPerAddress
            #expect(statuses[.unauthorized] == limit)
            #expect(statuses[.tooManyRequests] == 200 - limit)
            #expect(try await Self.events(application.database, key: "login-failures-address:unknown") == limit)
        }
    }

    @Test func rightPasswordsGiveTheirAddressReservationBack() async throws {
        try await TestApplication.run(on: .sqlite) { application, client in
            _ = try await client.signUp("hedy@example.com")
            let limit = TestApplication.testAuth.loginFailuresPerAddress
            for attempt in 0..<(limit - 1) {
                #expect(try await client.logIn("nobody\(attempt)@example.com", password: "wrong wrong").status == .unauthorized)
            }
            for _ in 0..<10 { #expect(try await client.logIn("hedy@example.com").status == .ok) }
            #expect(try await Self.events(application.database, key: "login-failures-address:unknown") == limit - 1)
            #expect(try await client.logIn("last@example.com", password: "wrong wrong").status == .unauthorized)
            #expect(try await client.logIn("hedy@example.com").status == .tooManyRequests)
        }
    }

    @Test func aRefusedAddressGivesTheAccountReservationBack() async throws {
        try await TestApplication.run(on: .sqlite) { application, client in
            let limit = TestApplication.testAuth.loginFailuresPerAddress
            for attempt in 0..<limit { _ = try await client.logIn("nobody\(attempt)@example.com", password: "wrong wrong") }
            #expect(try await client.logIn("ada@example.com", password: "wrong wrong").status == .tooManyRequests)
            let accountKey = "login-failures:closer:\(TokenService.hash("ada@example.com"))"
            #expect(try await Self.events(application.database, key: accountKey) == 0)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFullHashQueueRefusesAtOnceInsteadOfHoldingTheConnection() async throws {
        let limiter = ConcurrencyLimiter(limit: 1, maxWaiting: 2)
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask { try await limiter.run { try await Task.sleep(for: .seconds(2)); return 1 } }
            while await limiter.active < 1 { try await Task.sleep(for: .milliseconds(5)) }
            for _ in 0..<2 { group.addTask { try await limiter.run { 2 } } }
            while await limiter.queued < 2 { try await Task.sleep(for: .milliseconds(5)) }
            let started = ContinuousClock.now
            await #expect(throws: KindredError.rateLimited(retryAfterSeconds: 1)) { try await limiter.run { 3 } }
            #expect(ContinuousClock.now - started < .milliseconds(500))
            var results: [Int] = []
            for try await value in group { results.append(value) }
            #expect(results.sorted() == [1, 2, 2])
        }
    }

    @Test func theDefaultHashQueueHoldsSixtyFour() {
        #expect(AuthConfiguration().maxQueuedHashes == 64)
    }
}
