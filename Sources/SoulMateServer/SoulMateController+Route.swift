import Foundation
import KindredServerCore
import KindredStore
import SoulMateAPI
import SQLKit

/// The seed's app flow: where the app opens.
extension SoulMateController {
    /// The route of a signed-in caller on `installationID` (the lock is validated first).
    func route(_ user: AuthenticatedUser, installationID raw: String) async throws -> Components.Schemas.SoulMateRoute {
        let installationID = try SoulMateInput.installationID(raw)
        let sql = database.sql
        let lock = try await Self.lock(of: user.id, on: sql)
        let lockState: Components.Schemas.SoulMateRoute.LockPayload =
            lock == nil ? .none : lock?.installationID == installationID ? .held : .elsewhere
        let pending = try await Self.pendingCount(user.id, on: sql)
        if lockState == .elsewhere {
            return .init(route: .sessionLocked, lock: lockState, pendingRequests: pending)
        }
        guard PersonName(first: user.user.firstName, last: user.user.lastName).isComplete else {
            return .init(route: .profileCompletion, lock: lockState, pendingRequests: pending)
        }
        guard let member = try await Self.membership(of: user.id, on: sql) else {
            return .init(route: .pairing, lock: lockState, pendingRequests: pending)
        }
        return .init(route: .chat, lock: lockState, pendingRequests: pending, pairId: member.pairID, partnerId: member.partnerID)
    }
}
