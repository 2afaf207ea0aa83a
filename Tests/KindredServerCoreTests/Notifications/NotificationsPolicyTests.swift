@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import HTTPTypes
import Testing

/// The notifications domain's authorization matrix: only live sessions of the app reach its
/// routes; a token can only be deleted by the account that holds it (see PushTokenTests).
@Suite struct NotificationsPolicyTests {
    static let apnsToken = String(repeating: "ab", count: 32)

    static let routes: [(HTTPRequest.Method, String, String?)] = [
        (.post, "/v1/me/push-tokens", #"{"token":"\#(apnsToken)","transport":"apns","apnsEnvironment":"sandbox","deviceId":"phone-1"}"#),
        (.get, "/v1/me/push-tokens", nil),
        (.get, "/v1/me/notification-settings", nil),
        (.put, "/v1/me/notification-settings", #"{"quietHours":{"start":"22:00","end":"07:00"},"optOut":[]}"#),
    ]

    @Test(arguments: PolicyCaller.allCases)
    func everyNotificationsRouteAdmitsExactlyTheLiveSessionsOfItsApp(caller: PolicyCaller) async throws {
        try await PolicyCaller.check(Self.routes, as: caller)
    }
}
