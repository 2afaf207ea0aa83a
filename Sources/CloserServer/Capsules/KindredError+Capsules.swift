import KindredServerCore

/// The refusals of Closer's time capsules, each with its stable code (openapi.yaml, tag `capsules`).
extension KindredError {
    /// 400 `invalid_capsule` naming the problem.
    static func invalidCapsule(_ why: String) -> KindredError { refused(status: 400, code: "invalid_capsule", message: why) }
    /// 413 `capsule_too_large` naming the field.
    static func capsuleTooLarge(_ field: String, limit: Int) -> KindredError {
        refused(status: 413, code: "capsule_too_large", message: "\(field) must be at most \(limit) characters")
    }
    /// 404 `capsule_not_found`.
    static let capsuleNotFound = refused(status: 404, code: "capsule_not_found", message: "no such capsule")
    /// 409 `capsule_locked`: the content is not served before the unlock time.
    static func capsuleLocked(until: String) -> KindredError {
        refused(status: 409, code: "capsule_locked", message: "this capsule stays locked until \(until)")
    }
    /// 409 `capsule_limit_reached`: the couple keeps `closer.capsulesPerCouple` capsules already.
    static func capsuleLimitReached(_ limit: Int) -> KindredError {
        refused(status: 409, code: "capsule_limit_reached", message: "a couple keeps at most \(limit) capsules")
    }
    /// 409 `capsule_unlocked`: an unlocked capsule belongs to both partners and is kept.
    static let capsuleUnlocked = refused(status: 409, code: "capsule_unlocked", message: "an unlocked capsule cannot be deleted")
}

extension NotificationType {
    /// The partner sealed a capsule, or a capsule unlocked.
    public static let closerCapsule = NotificationType(rawValue: "memory_capsule")
}
