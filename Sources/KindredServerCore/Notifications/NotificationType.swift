/// The kinds of notification Kindred sends, and which are critical.
///
/// Critical types (account security, billing problems) are sent even inside a quiet window and
/// cannot be opted out of; every other type waits for the window to end and may be opted out of.
public struct NotificationType: Sendable, Hashable, RawRepresentable, Codable {
    /// The type's stable name (`daily_question`, …).
    public var rawValue: String

    /// Wraps a name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Sign-ins, password and credential changes.
    public static let accountSecurity = NotificationType(rawValue: "account_security")
    /// A failed renewal or a refund.
    public static let billingProblem = NotificationType(rawValue: "billing_problem")

    /// The types that ignore quiet hours and opt-outs.
    public static let critical: Set<NotificationType> = [.accountSecurity, .billingProblem]

    /// Whether this type ignores quiet hours and opt-outs.
    public var isCritical: Bool { Self.critical.contains(self) }

    /// Whether `name` is a well-formed type name: 1–64 of `a-z`, `0-9`, `_`, starting with a letter.
    package static func isWellFormed(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.utf8.count <= 64 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
