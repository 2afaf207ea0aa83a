@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KindredAPI
import KindredTestSupport
import NIOCore
import Testing

/// Every `maxLength`, `minLength`, `pattern`, `minimum`, `maximum`, `minItems`, `maxItems` and
/// `uniqueItems` of every operation of every contract the server serves is enforced before the
/// handler: a request breaking it gets the refusal the contract names (400 `bad_request`
/// unless `x-kindred-code` says otherwise) in the error envelope, with the field's location in
/// the message. The cases come from the documents (`contractViolations`), so a new constraint
/// is covered without a new test.
@Suite struct ContractConstraintsTests {
    /// The contracts as the server serves them, core first.
    static var contracts: [APIContract] {
        get throws {
            [APIContract(name: APIContract.coreName, document: try OpenAPIDocument.load())]
                + ServerDomains.all().compactMap(\.contract)
        }
    }

    /// The operations served on the plain router, not through the generated server: the billing
    /// webhooks, whose handlers check the provider's signature before reading the body and
    /// refuse a malformed event themselves (400 `malformed_event`, docs/billing.md).
    static let plainRouterOperations: Set<String> = ["POST /v1/webhooks/revenuecat", "POST /v1/webhooks/stripe"]

    @Test func everyDocumentCompilesAndDescribesEveryOperation() throws {
        let contracts = try Self.contracts
        #expect(contracts.map(\.name) == ["core", "closer", "soulmate", "streaksync", "exeraser"])
        // Every pattern compiles and every reference resolves (or this throws).
        let constraints = try RequestConstraints(contracts)
        var documented: Set<String> = []
        for contract in contracts { documented.formUnion(contractOperations(contract.document)) }
        #expect(documented.isSubset(of: Set(constraints.operations.keys)))
        let patterns = contracts.reduce(0) { count, contract in
            count + String(decoding: contract.document, as: UTF8.self).split(separator: "\n").filter {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("pattern:")
            }.count
        }
        #expect(patterns > 30)
        // Building the server registers every generated operation through the checking transport,
        // which refuses one the documents do not describe (`undocumentedOperation`).
    }

    @Test(.timeLimit(.minutes(5)), arguments: ["core", "closer", "soulmate", "streaksync", "exeraser"], Backend.all)
    func everyConstraintOfEveryOperationIsEnforced(contract name: String, backend: Backend) async throws {
        let contract = try #require(try Self.contracts.first { $0.name == name })
        let cases = try contractViolations(contract.document, name: name).filter { !Self.plainRouterOperations.contains($0.operation) }
        #expect(cases.count > 10)
        try await TestApplication.run(on: backend) { _, client in
            for violation in cases {
                var headers: HTTPFields = [.xKindredApp: "closer"]
                for (field, value) in violation.headers { headers[HTTPField.Name(field)!] = value }
                if violation.body != nil { headers[.contentType] = "application/json" }
                let response = try await client.execute(
                    uri: violation.uri, method: HTTPRequest.Method(violation.method)!, headers: headers,
                    body: violation.body.map { ByteBuffer(string: $0) }
                )
                let text = String(buffer: response.body)
                #expect(Int(response.status.code) == violation.status, "\(violation): \(text)")
                let envelope = try? JSONDecoder().decode(KindredError.Envelope.self, from: Data(text.utf8))
                #expect(envelope?.error.code == violation.code, "\(violation): \(text)")
                #expect(envelope?.error.message.hasPrefix("invalid request: \(violation.location) ") == true, "\(violation): \(text)")
            }
        }
    }

    @Test(arguments: Backend.all)
    func stripeSessionIDsAreCheckedBeforeTheProvider(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            for (sessionId, message) in [
                ("pi_3Nx", #"body.sessionId does not match the pattern ^cs_[A-Za-z0-9_]{1,250}$"#),
                ("cs_" + String(repeating: "ü", count: 10_000), "body.sessionId is longer than 253 characters"),
            ] {
                let body = try JSONSerialization.data(withJSONObject: ["sessionId": sessionId])
                let response = try await client.execute(
                    uri: "/v1/billing/stripe/verify", method: .post,
                    headers: [.xKindredApp: "pulse", .contentType: "application/json"], body: ByteBuffer(bytes: body)
                )
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body) == envelope("bad_request", "invalid request: \(message)"))
            }
        }
    }
}
