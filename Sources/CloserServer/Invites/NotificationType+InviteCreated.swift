import KindredServerCore

extension NotificationType {
    /// The inviter's record of a new invite (the seed's `notification_queue` entry written by
    /// `createInviteCallable`): the invite is ready to share and expires in 24 hours.
    public static let closerInviteCreated = NotificationType(rawValue: "invite_created")
}
