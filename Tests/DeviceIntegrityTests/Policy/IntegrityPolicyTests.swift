import Testing
@testable import DeviceIntegrity

@Suite struct IntegrityPolicyTests {
    let policy = IntegrityPolicy(rules: [
        IntegrityRule(app: "*", route: "*", missing: .log, failed: .log),
        IntegrityRule(app: "closer", route: "/v1/closer/*", missing: .limit, failed: .refuse),
        IntegrityRule(app: "closer", route: "/v1/closer/answers", missing: .refuse, failed: .refuse),
    ])

    @Test func picksTheMostSpecificRule() {
        #expect(policy.action(for: .missing, app: "closer", path: "/v1/closer/answers") == .refuse)
        #expect(policy.action(for: .missing, app: "closer", path: "/v1/closer/threads") == .limit)
        #expect(policy.action(for: .failed(reason: "x"), app: "closer", path: "/v1/closer/threads") == .refuse)
        #expect(policy.action(for: .missing, app: "closer", path: "/v1/me") == .log)
        #expect(policy.action(for: .missing, app: "soulmate", path: "/v1/closer/threads") == .log)
    }

    @Test func passedVerdictsAndUncoveredRoutesAreServed() {
        #expect(policy.action(for: .passed, app: "closer", path: "/v1/closer/answers") == nil)
        #expect(IntegrityPolicy().action(for: .missing, app: "closer", path: "/v1/me") == nil)
        let exact = IntegrityPolicy(rules: [IntegrityRule(app: "closer", route: "/v1/me", missing: .refuse, failed: .refuse)])
        #expect(exact.action(for: .missing, app: "closer", path: "/v1/me/x") == nil)
    }

    @Test func verdictNames() {
        #expect(DeviceVerdict.passed.name == "passed")
        #expect(DeviceVerdict.failed(reason: "r").name == "failed")
        #expect(DeviceVerdict.missing.name == "missing")
    }
}
