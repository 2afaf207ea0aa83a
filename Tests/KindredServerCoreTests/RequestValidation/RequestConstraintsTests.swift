@testable import KindredServerCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OpenAPIRuntime
import Testing

/// The contract constraints the transport enforces before a handler: each keyword, nested
/// objects and arrays, `$ref` (recursive too), `allOf`, parameters in the path, query and
/// headers, the contract's own error codes, and the refusals at start.
@Suite struct RequestConstraintsTests {
    static let document = #"""
        openapi: "3.1.0"
        info: {title: Test, version: "1"}
        paths:
          /things/{thingId}:
            parameters:
              - $ref: "#/components/parameters/ThingID"
            post:
              parameters:
                - name: limit
                  in: query
                  schema: {type: integer, minimum: 1, maximum: 100}
                - name: ratio
                  in: query
                  schema: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 1}
                - name: tag
                  in: query
                  schema:
                    type: array
                    maxItems: 2
                    items: {type: string, maxLength: 3}
                - name: X-Thing-Note
                  in: header
                  schema: {type: string, maxLength: 5}
              requestBody:
                content:
                  application/json:
                    schema:
                      $ref: "#/components/schemas/Thing"
            get:
              responses: {}
          /plain:
            get:
              responses: {}
          /sessions:
            post:
              requestBody:
                $ref: "#/components/requestBodies/Verify"
        components:
          parameters:
            ThingID:
              name: thingId
              in: path
              required: true
              schema:
                type: string
                pattern: "^[a-z]{1,8}$"
          requestBodies:
            Verify:
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      sessionId:
                        type: string
                        pattern: "^cs_[A-Za-z0-9_]{1,250}$"
                        maxLength: 253
          schemas:
            Name:
              type: string
              minLength: 2
              maxLength: 4
            Thing:
              type: object
              properties:
                name:
                  $ref: "#/components/schemas/Name"
                code:
                  type: string
                  pattern: "[0-9]"
                  x-kindred-code: "422 invalid_code"
                password:
                  allOf:
                    - $ref: "#/components/schemas/Name"
                  x-kindred-code: weak_password
                score:
                  type: [integer, "null"]
                  minimum: -5
                  maximum: 5
                tags:
                  type: array
                  minItems: 1
                  maxItems: 2
                  uniqueItems: true
                  items:
                    $ref: "#/components/schemas/Name"
                labels:
                  type: object
                  additionalProperties:
                    type: string
                    maxLength: 3
                child:
                  $ref: "#/components/schemas/Thing"
        """#

    private static func constraints(_ text: String = document) throws -> RequestConstraints {
        try RequestConstraints([APIContract(name: "test", document: Array(text.utf8))])
    }

    /// A router serving `POST /things/{thingId}`, `GET /plain` and `POST /sessions` through the
    /// checking transport; handlers answer 204.
    private func application() throws -> some ApplicationProtocol {
        let router = Router(context: KindredRequestContext.self)
        router.add(middleware: ErrorMiddleware())
        let transport = KindredTransport(router: router, constraints: try Self.constraints())
        for (method, path) in [(HTTPRequest.Method.post, "/things/{thingId}"), (.get, "/plain"), (.post, "/sessions")] {
            try transport.register({ _, _, _ in (HTTPResponse(status: .noContent), nil) }, method: method, path: path)
        }
        return Application(router: router)
    }

    private func send(
        _ uri: String, _ body: String? = nil, method: HTTPRequest.Method = .post, headers: HTTPFields = [:]
    ) async throws -> (status: Int, body: String) {
        try await application().test(.router) { client in
            var headers = headers
            if body != nil { headers[.contentType] = "application/json" }
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
            return (Int(response.status.code), String(buffer: response.body))
        }
    }

    private func refusal(_ code: String, _ message: String) -> String {
        #"{"error":{"code":"\#(code)","message":"\#(message)"}}"#
    }

    @Test func validRequestsReachTheHandler() async throws {
        let body = #"{"name":"abc","code":"x1","password":"pass","score":5,"tags":["ab","cd"],"labels":{"a":"xyz"},"child":{"name":"ab"},"other":"any length at all"}"#
        #expect(try await send("/things/abc?limit=100&ratio=0.5&tag=a&tag=bc", body, headers: [HTTPField.Name("X-Thing-Note")!: "12345"]).status == 204)
        #expect(try await send("/things/abc", #"{"score":null,"tags":["ab"]}"#).status == 204)
        #expect(try await send("/plain", method: .get).status == 204)
        // Unicode: lengths count characters (code points), not bytes: 4 × 4-byte emoji fit maxLength 4.
        #expect(try await send("/things/abc", #"{"name":"😀😀😀😀"}"#).status == 204)
    }

    @Test(arguments: [
        // Each keyword, reported with where the value is.
        (#"{"name":"a"}"#, "body.name is shorter than 2 characters"),
        (#"{"name":"abcde"}"#, "body.name is longer than 4 characters"),
        (#"{"name":"😀😀😀😀😀"}"#, "body.name is longer than 4 characters"),
        (#"{"score":6}"#, "body.score is greater than 5"),
        (#"{"score":-5.5}"#, "body.score is less than -5"),
        (#"{"tags":[]}"#, "body.tags has fewer than 1 item"),
        (#"{"tags":["ab","cd","ef"]}"#, "body.tags has more than 2 items"),
        (#"{"tags":["ab","ab"]}"#, "body.tags has a repeated item"),
        // Nested: array items, a map's values, a recursive reference.
        (#"{"tags":["ab","toolong"]}"#, "body.tags[1] is longer than 4 characters"),
        (#"{"labels":{"ok":"abc","bad":"abcd"}}"#, "body.labels.bad is longer than 3 characters"),
        (#"{"child":{"child":{"name":"x"}}}"#, "body.child.child.name is shorter than 2 characters"),
    ])
    func bodyViolationsAre400WithTheEnvelope(body: String, message: String) async throws {
        let answer = try await send("/things/abc", body)
        #expect(answer.status == 400)
        #expect(answer.body == refusal("bad_request", "invalid request: \(message)"))
    }

    @Test func theContractNamesTheCodeOfAField() async throws {
        let code = try await send("/things/abc", #"{"code":"none"}"#)
        #expect(code.status == 422)
        #expect(code.body == refusal("invalid_code", "invalid request: body.code does not match the pattern [0-9]"))
        // Through `allOf` and a `$ref`: the code of the schema that holds them.
        let password = try await send("/things/abc", #"{"password":"toolong"}"#)
        #expect(password.status == 400)
        #expect(password.body == refusal("weak_password", "invalid request: body.password is longer than 4 characters"))
    }

    @Test func patternsMatchAnywhereUnlessAnchored() async throws {
        // `[0-9]` (no anchors) matches a digit anywhere, as JSON Schema's search semantics say.
        #expect(try await send("/things/abc", #"{"code":"abc9def"}"#).status == 204)
    }

    @Test(arguments: [
        ("/things/ABC", "path.thingId does not match the pattern ^[a-z]{1,8}$"),
        ("/things/abcdefghi", "path.thingId does not match the pattern ^[a-z]{1,8}$"),
        ("/things/ab%20c", "path.thingId does not match the pattern ^[a-z]{1,8}$"),
        ("/things/abc?limit=0", "query.limit is less than 1"),
        ("/things/abc?limit=101", "query.limit is greater than 100"),
        ("/things/abc?ratio=0", "query.ratio is not greater than 0"),
        ("/things/abc?ratio=1", "query.ratio is not less than 1"),
        ("/things/abc?tag=a&tag=b&tag=c", "query.tag has more than 2 items"),
        ("/things/abc?tag=abcd", "query.tag[0] is longer than 3 characters"),
        ("/things/abc?tag=ab%20cd", "query.tag[0] is longer than 3 characters"),
    ])
    func parameterViolationsAre400WithTheEnvelope(uri: String, message: String) async throws {
        let answer = try await send(uri, "{}")
        #expect(answer.status == 400)
        #expect(answer.body == refusal("bad_request", "invalid request: \(message)"))
    }

    @Test func headerParametersAreChecked() async throws {
        let answer = try await send("/things/abc", "{}", headers: [HTTPField.Name("X-Thing-Note")!: "123456"])
        #expect(answer.body == refusal("bad_request", "invalid request: header.X-Thing-Note is longer than 5 characters"))
    }

    @Test func theStripeSessionIDIsCheckedAgainstItsPattern() async throws {
        #expect(try await send("/sessions", #"{"sessionId":"cs_test_a1"}"#).status == 204)
        let wrong = try await send("/sessions", #"{"sessionId":"pi_123"}"#)
        #expect(wrong.body == refusal("bad_request", #"invalid request: body.sessionId does not match the pattern ^cs_[A-Za-z0-9_]{1,250}$"#))
        // 10 KB of Unicode never reaches a handler.
        let huge = try await send("/sessions", #"{"sessionId":"cs_\#(String(repeating: "é", count: 10_000))"}"#)
        #expect(huge.body == refusal("bad_request", "invalid request: body.sessionId is longer than 253 characters"))
    }

    @Test func whatIsNotJSONIsLeftToTheDecoderAndDeepNestingIsRefused() async throws {
        // Not JSON: the generated code's decoder answers (here the fake handler, so 204).
        #expect(try await send("/things/abc", #"{"name":"#).status == 204)
        let deep = try await send("/things/abc", #"{"child":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}")
        #expect(deep.status == 400)
        #expect(deep.body == refusal("bad_request", "invalid request: the body nests deeper than 64 levels"))
    }

    @Test func startRefusesWhatItCannotEnforce() throws {
        let badPattern = Self.document.replacingOccurrences(of: #"pattern: "[0-9]""#, with: #"pattern: "[0-9""#)
        #expect { try Self.constraints(badPattern) } throws: { error in
            guard case .invalidPattern(document: "test", pattern: "[0-9", reason: _) = error as? ContractConstraintError else { return false }
            return true
        }
        let badReference = Self.document.replacingOccurrences(of: "#/components/schemas/Name", with: "#/components/schemas/Nome")
        #expect(throws: ContractConstraintError.unresolvedReference(document: "test", reference: "#/components/schemas/Nome")) {
            try Self.constraints(badReference)
        }
        let badBound = Self.document.replacingOccurrences(of: "maxLength: 253", with: "maxLength: many")
        #expect(throws: ContractConstraintError.invalidBound(document: "test", keyword: "maxLength", value: "many")) {
            try Self.constraints(badBound)
        }
        #expect(throws: ContractConstraintError.self) { try Self.constraints("paths: [unclosed") }
    }

    @Test func registeringAnUndocumentedOperationFailsAtStart() throws {
        let transport = KindredTransport(router: Router(context: KindredRequestContext.self), constraints: try Self.constraints())
        #expect(throws: ContractConstraintError.undocumentedOperation(method: "DELETE", path: "/things/{thingId}")) {
            try transport.register({ _, _, _ in (HTTPResponse(status: .noContent), nil) }, method: .delete, path: "/things/{thingId}")
        }
    }
}
