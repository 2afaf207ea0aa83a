@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredTestSupport
import Testing

/// `GET/PUT /v1/me/notification-settings`.
@Suite struct NotificationSettingsTests {
    @Test(arguments: Backend.all)
    func settingsDefaultToTheProfileZoneAndAreReplacedWhole(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let session = try await client.anonymous()
            _ = try await client.call(.patch, "/v1/me", token: session.accessToken, json: #"{"timeZone":"Europe/Istanbul"}"#)
            let defaults = try await client.call(.get, "/v1/me/notification-settings", token: session.accessToken)
            #expect(defaults.text == #"{"optOut":[],"timeZone":"Europe/Istanbul"}"#)

            let put = try await client.call(
                .put, "/v1/me/notification-settings", token: session.accessToken,
                json: #"{"timeZone":"America/Chicago","quietHours":{"start":"22:30","end":"07:00"},"optOut":["daily_question","streak_reminder","daily_question"]}"#
            )
            #expect(put.status == .ok, "\(put.text)")
            let expected = #"{"optOut":["daily_question","streak_reminder"],"quietHours":{"end":"07:00","start":"22:30"},"timeZone":"America/Chicago"}"#
            #expect(put.text == expected)
            #expect(try await client.call(.get, "/v1/me/notification-settings", token: session.accessToken).text == expected)

            let cleared = try await client.call(.put, "/v1/me/notification-settings", token: session.accessToken, json: #"{"optOut":[]}"#)
            #expect(cleared.text == #"{"optOut":[]}"#)
        }
    }

    @Test(arguments: [
        (#"{"optOut":["account_security"]}"#, "invalid_notification_settings"),
        (#"{"optOut":["Daily Question"]}"#, "invalid_notification_settings"),
        (#"{"timeZone":"Moon/Base","optOut":[]}"#, "invalid_notification_settings"),
        (#"{"quietHours":{"start":"22:00","end":"22:00"},"optOut":[]}"#, "invalid_notification_settings"),
        (#"{"quietHours":{"start":"24:00","end":"07:00"},"optOut":[]}"#, "invalid_notification_settings"),
        (#"{"quietHours":{"start":"9:00","end":"07:00"},"optOut":[]}"#, "invalid_notification_settings"),
        (#"{"quietHours":{"start":"22:00"},"optOut":[]}"#, "bad_request"),
        (#"{"optOut":[],"volume":11}"#, "bad_request"),
    ])
    func badSettingsAreRefusedAndChangeNothing(body: String, code: String) async throws {
        try await TestApplication.run(on: .sqlite) { _, client in
            let session = try await client.anonymous()
            let response = try await client.call(.put, "/v1/me/notification-settings", token: session.accessToken, json: body)
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(response.errorCode == code, "\(response.text)")
            #expect(try await client.call(.get, "/v1/me/notification-settings", token: session.accessToken).text == #"{"optOut":[]}"#)
        }
    }
}
