import KindredServerCore

/// The refusals of dates and the bucket list, each with its stable code (listed in openapi.yaml,
/// tags `dates` and `bucket`).
extension KindredError {
    /// 404 `date_idea_not_found`.
    static let dateIdeaNotFound = refused(status: 404, code: "date_idea_not_found", message: "no such date idea")
    /// 400 `invalid_swipe`.
    static let invalidSwipe = refused(status: 400, code: "invalid_swipe", message: "action must be love, maybe or skip")
    /// 400 `invalid_preferences` naming the problem.
    static func invalidPreferences(_ why: String) -> KindredError { refused(status: 400, code: "invalid_preferences", message: why) }
    /// 404 `date_match_not_found`.
    static let dateMatchNotFound = refused(status: 404, code: "date_match_not_found", message: "no such date match")
    /// 400 `invalid_date_plan` naming the bad field.
    static func invalidDatePlan(_ why: String) -> KindredError { refused(status: 400, code: "invalid_date_plan", message: why) }
    /// 404 `date_plan_not_found`.
    static let datePlanNotFound = refused(status: 404, code: "date_plan_not_found", message: "no such date plan")
    /// 409 `invalid_status_transition` naming the transition.
    static func invalidStatusTransition(from: String, to: String) -> KindredError {
        refused(status: 409, code: "invalid_status_transition", message: "a \(from) plan cannot become \(to)")
    }
    /// 409 `plan_revision_conflict`: the plan changed since the caller read it.
    static func planRevisionConflict(current: Int) -> KindredError {
        refused(status: 409, code: "plan_revision_conflict", message: "the plan changed meanwhile (it is at revision \(current)); read it again")
    }
    /// 400 `invalid_bucket_item` naming the bad field.
    static func invalidBucketItem(_ why: String) -> KindredError { refused(status: 400, code: "invalid_bucket_item", message: why) }
    /// 404 `bucket_item_not_found`.
    static let bucketItemNotFound = refused(status: 404, code: "bucket_item_not_found", message: "no such bucket-list item")
}

extension NotificationType {
    /// Both partners loved the same date idea.
    public static let closerDateMatch = NotificationType(rawValue: "date_match")
}
