/// The refusals of the notifications domain.
extension KindredError {
    /// 400 `invalid_push_token`.
    package static func invalidPushToken(_ why: String) -> KindredError {
        refused(status: 400, code: "invalid_push_token", message: why)
    }
    /// 404 `push_token_not_found`.
    package static let pushTokenNotFound = refused(
        status: 404, code: "push_token_not_found", message: "this account has no such push token"
    )
    /// 400 `invalid_notification_settings`.
    package static func invalidNotificationSettings(_ why: String) -> KindredError {
        refused(status: 400, code: "invalid_notification_settings", message: why)
    }
}
