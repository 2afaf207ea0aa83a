import KindredServerCore

/// Closer's notification types (opt-outs use these names).
extension NotificationType {
    /// The partner answered today's question.
    public static let closerPartnerAnswered = NotificationType(rawValue: "partner_answered")
    /// The partner released their answer's key: the answer can be revealed.
    public static let closerKeysReleased = NotificationType(rawValue: "keys_released")
    /// The partner posted in a thread.
    public static let closerThreadMessage = NotificationType(rawValue: "thread_message")
    /// Someone accepted the user's invite.
    public static let closerInviteAccepted = NotificationType(rawValue: "invite_accepted")
    /// The daily-question reminder for a partner who has not answered.
    public static let closerDailyQuestion = NotificationType(rawValue: "daily_question")
    /// A gentle nudge from the partner.
    public static let closerGentleReminder = NotificationType(rawValue: "gentle_reminder")
    /// The partner left the couple.
    public static let closerPartnerLeft = NotificationType(rawValue: "partner_left")
}
