import Foundation
import KindredClient
import StreakAPI
import StreakKit

/// Sign-up, log-in, log-out and the StreakSync profile (the display name friends see).
extension StreakDevice {
    /// The caller's StreakSync profile.
    public typealias Profile = StreakAPI.Components.Schemas.StreakSyncProfile

    /// Creates a password account, signs it in, sets the display name friends see, and queues this
    /// device's results and achievements for the new account.
    /// - Throws: `.guestMode` while a guest plays; `.client`.
    public func signUp(email: String, password: String, displayName: String) async throws(StreakClientError) {
        try refuseInGuestMode()
        do {
            try await session.signUp(email: email, password: password, displayName: displayName)
        } catch {
            throw .client(error)
        }
        _ = try await setDisplayName(displayName)
        try local { () throws(StreakStoreError) in try store.requeueEverything(now: now()) }
    }

    /// Signs in with a password and queues this device's results and achievements (the server
    /// ignores the ones it already holds).
    /// - Throws: `.guestMode` while a guest plays; `.client`.
    public func logIn(email: String, password: String) async throws(StreakClientError) {
        try refuseInGuestMode()
        do {
            try await session.logIn(email: email, password: password)
        } catch {
            throw .client(error)
        }
        try local { () throws(StreakStoreError) in try store.requeueEverything(now: now()) }
    }

    /// Signs out: the session ends and the scores staged for this account leave the secure store
    /// (the next account to sign in stages its own from the results); the results stay on the device.
    /// - Throws: `.client` when the server cannot be reached (the session and staged scores stay);
    ///   `.secureStore`.
    public func logOut() async throws(StreakClientError) {
        do {
            try await session.logOut()
        } catch {
            throw .client(error)
        }
        try pendingScores.removeAll()
    }

    /// The caller's StreakSync profile.
    public func profile() async throws(StreakClientError) -> Profile {
        let output = try await call { [app] in try await $0.getStreakSyncProfile(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let profile) = ok.body else { throw Self.failure(output) }
        return profile
    }

    /// Sets the display name friends see (1–200 characters; 422 `invalid_display_name` otherwise).
    public func setDisplayName(_ name: String) async throws(StreakClientError) -> Profile {
        let output = try await call { [app] in
            try await $0.putStreakSyncProfile(headers: .init(xKindredApp: app), body: .json(.init(displayName: name)))
        }
        guard case .ok(let ok) = output, case .json(let profile) = ok.body else { throw Self.failure(output) }
        return profile
    }
}
