import KindredServerCore

/// The refusals of Ex-Eraser, each with its stable code (listed in openapi.yaml).
extension KindredError {
    /// 403 `wrong_app`: Ex-Eraser routes serve Ex-Eraser accounts only.
    static let wrongApp = refused(status: 403, code: "wrong_app", message: "Ex-Eraser routes need X-Kindred-App: exeraser")
    /// 400 `invalid_analytics_event`, naming the event's index and the field.
    static func invalidAnalyticsEvent(_ why: String) -> KindredError {
        refused(status: 400, code: "invalid_analytics_event", message: why)
    }
}
