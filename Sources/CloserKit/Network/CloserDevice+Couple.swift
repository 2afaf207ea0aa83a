import CloserAPI
import KindredClient

/// What a gentle reminder did.
public struct NudgeResult: Sendable, Equatable {
    /// Whether the partner was reminded.
    public let sent: Bool
    /// When not: minutes until a reminder may be sent again.
    public let retryAfterMinutes: Int?
}

extension CloserDevice {
    /// Sends the partner a gentle reminder (limits answer `sent: false`, not an error).
    public func nudge() async throws(CloserKitError) -> NudgeResult {
        let output = try await call { [app] in try await $0.sendCloserGentleReminder(headers: .init(xKindredApp: app)) }
        switch output {
        case .ok(let ok):
            guard case .json(let result) = ok.body else { throw .invalidServerData("no reminder result") }
            return NudgeResult(sent: result.allowed, retryAfterMinutes: result.retryAfterMinutes)
        default:
            let failure = Self.failure(output)
            if case .client(let error) = failure, error.serverCode == "not_paired" { throw .noCouple }
            throw failure
        }
    }

    /// Leaves the couple: the server deletes it and its content; this device forgets the couple
    /// keyring, any open invite and the pending answer keys.
    public func leave() async throws(CloserKitError) {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in try await $0.leaveCloserCouple(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app)) }
            guard case .noContent = output else { throw Self.failure(output) }
            try pending.removeAll(coupleId: couple.id)
        }
        cache.invalidate()
        try secureStoreCall { () throws(SecureStoreError) in try secureStore.remove(.couple) }
        try secureStoreCall { () throws(SecureStoreError) in try secureStore.remove(.openInvite) }
    }
}
