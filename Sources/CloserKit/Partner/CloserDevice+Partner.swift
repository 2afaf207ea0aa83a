import CloserAPI
import KindredClient

/// The partner's display name and photo URL, as their account profile has them.
public struct PartnerProfile: Sendable, Equatable, Codable {
    /// The partner's account id.
    public let userId: String
    /// Their display name, nil when they set none.
    public let displayName: String?
    /// Their `https` photo URL, nil when they set none.
    public let photoUrl: String?

    /// Wraps the values.
    public init(userId: String, displayName: String?, photoUrl: String?) {
        self.userId = userId
        self.displayName = displayName
        self.photoUrl = photoUrl
    }
}

extension CloserDevice {
    /// Reads the partner's display name and photo URL (`GET …/couples/{id}/partner`).
    /// - Throws: `CloserKitError.noCouple` when this account is in no couple; `.client` for
    ///   any other refusal.
    public func partnerProfile() async throws(CloserKitError) -> PartnerProfile {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in try await $0.getCloserPartner(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app)) }
            guard case .ok(let ok) = output, case .json(let profile) = ok.body else { throw Self.failure(output) }
            return PartnerProfile(userId: profile.userId, displayName: profile.displayName, photoUrl: profile.photoUrl)
        }
    }
}
