import Foundation
import KindredClient
import KindredCrypto
import SoulMateAPI

/// Sign-up, sign-in with the single-device lock, logout, takeover and the app's route.
extension SoulMateDevice {
    /// Where the app opens, the lock's state and the badge count.
    public typealias Route = SoulMateAPI.Components.Schemas.SoulMateRoute
    /// `auth`, `sessionLocked`, `profileCompletion`, `pairing` or `chat`.
    public typealias RouteName = SoulMateAPI.Components.Schemas.SoulMateRoute.RoutePayload

    /// Creates the account (first and last name required), takes the session lock and publishes
    /// this phone's identity key.
    public func signUp(email: String, password: String, firstName: String, lastName: String) async throws(SoulMateKitError) {
        do {
            try await session.signUp(email: email, password: password, firstName: firstName, lastName: lastName)
        } catch {
            throw .client(error)
        }
        try await afterSignIn()
    }

    /// Signs in, then takes the session lock: when another installation holds it, this new
    /// session is ended again and `.sessionLocked` says where the account is open.
    public func logIn(email: String, password: String) async throws(SoulMateKitError) {
        do {
            try await session.logIn(email: email, password: password)
        } catch {
            throw .client(error)
        }
        try await afterSignIn()
    }

    private func afterSignIn() async throws(SoulMateKitError) {
        do {
            try await acquireLock()
        } catch let error where error.serverCode == "session_locked" {
            try? await session.logOut()
            if case .client(.server(_, _, let message)) = error { throw .sessionLocked(message) }
            throw error
        }
        _ = try await publishIdentity()
    }

    /// Takes (or refreshes) the session lock for this installation.
    @discardableResult
    public func acquireLock() async throws(SoulMateKitError) -> SoulMateAPI.Components.Schemas.SoulMateSessionLock {
        let body = SoulMateAPI.Components.Schemas.SoulMateSessionLockRequest(
            installationId: installation.id, platform: installation.platform, deviceName: installation.deviceName,
            appVersion: installation.appVersion
        )
        let output = try await call { [app] in try await $0.acquireSoulMateSessionLock(headers: .init(xKindredApp: app), body: .json(body)) }
        guard case .ok(let ok) = output, case .json(let lock) = ok.body else { throw Self.failure(output) }
        return lock
    }

    /// Signs in on this phone when the old one is lost: the password again, then the lock moves
    /// here, every other session is revoked and the old phone is told it was signed out.
    public func takeOver(email: String, password: String) async throws(SoulMateKitError) {
        if try await (try? session.storedSession()) == nil {
            do {
                try await session.logIn(email: email, password: password)
            } catch {
                throw .client(error)
            }
        }
        let body = SoulMateAPI.Components.Schemas.SoulMateTakeover(
            installationId: installation.id, platform: installation.platform, deviceName: installation.deviceName,
            appVersion: installation.appVersion, password: password
        )
        let output = try await call { [app] in try await $0.takeOverSoulMateSessionLock(headers: .init(xKindredApp: app), body: .json(body)) }
        guard case .ok = output else { throw Self.failure(output) }
        _ = try await publishIdentity()
    }

    /// Releases the lock, then ends the session. The seed's network-required policy: when the
    /// release fails the session is kept and `.logoutRefused` says why.
    public func logOut() async throws(SoulMateKitError) {
        let installationID = installation.id
        do throws(SoulMateKitError) {
            let output = try await call { [app] in
                try await $0.releaseSoulMateSessionLock(query: .init(installationId: installationID), headers: .init(xKindredApp: app))
            }
            guard case .noContent = output else { throw Self.failure(output) }
        } catch {
            throw .logoutRefused(error.description)
        }
        do {
            try await session.logOut()
        } catch {
            throw .client(error)
        }
    }

    /// Where the app opens. A signed-in phone whose lock is free takes it first (the seed
    /// validates the lock before launch).
    public func route() async throws(SoulMateKitError) -> Route {
        let installationID = installation.id
        let ask = { () async throws(SoulMateKitError) -> SoulMateAPI.Components.Schemas.SoulMateRoute in
            let output = try await call { [app] in
                try await $0.getSoulMateRoute(query: .init(installationId: installationID), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let route) = ok.body else { throw Self.failure(output) }
            return route
        }
        if try await (try? session.storedSession()) == nil {
            return .init(route: .auth, lock: .none, pendingRequests: 0)
        }
        let first: SoulMateAPI.Components.Schemas.SoulMateRoute
        do {
            first = try await ask()
        } catch .client(.sessionExpired) {
            return .init(route: .auth, lock: .none, pendingRequests: 0)
        } catch .client(.notSignedIn) {
            return .init(route: .auth, lock: .none, pendingRequests: 0)
        }
        guard first.lock == .none, first.route != .auth else { return first }
        try await acquireLock()
        return try await ask()
    }

    /// The profile's names; with values, sets them (profile completion).
    public func profile(firstName: String? = nil, lastName: String? = nil) async throws(SoulMateKitError) -> (first: String?, last: String?) {
        do {
            if firstName != nil || lastName != nil {
                let user = try await session.updateMe(.init(firstName: firstName, lastName: lastName))
                return (user.firstName, user.lastName)
            }
            let user = try await session.me()
            return (user.firstName, user.lastName)
        } catch {
            throw .client(error)
        }
    }

    // MARK: - Identity key

    /// This user's identity on this phone, made on first use.
    public func identity() throws(SoulMateKitError) -> SoulMateIdentity {
        if let raw = try secure({ () throws(SecureStoreError) in try secureStore.read(.soulmateIdentity) }) {
            do { return try SoulMateIdentity(rawPrivateKey: raw) } catch { throw .crypto(error) }
        }
        let identity = SoulMateIdentity()
        try secure { () throws(SecureStoreError) in try secureStore.write(.soulmateIdentity, identity.rawPrivateKey) }
        return identity
    }

    /// Publishes this phone's public key; remembers the version the server gave it.
    /// - Returns: the key version.
    public func publishIdentity() async throws(SoulMateKitError) -> Int {
        let publicKey = try identity().publicKeyBase64
        let output = try await call { [app] in
            try await $0.publishSoulMateIdentityKey(headers: .init(xKindredApp: app), body: .json(.init(publicKey: publicKey)))
        }
        guard case .ok(let ok) = output, case .json(let key) = ok.body else { throw Self.failure(output) }
        try secure { () throws(SecureStoreError) in try secureStore.write(.soulmateKeyVersion, Array(String(key.keyVersion).utf8)) }
        return key.keyVersion
    }

    /// The version of this phone's published key (publishing it when unknown).
    func myKeyVersion() async throws(SoulMateKitError) -> Int {
        if let bytes = try secure({ () throws(SecureStoreError) in try secureStore.read(.soulmateKeyVersion) }),
           let version = Int(String(decoding: bytes, as: UTF8.self))
        {
            return version
        }
        return try await publishIdentity()
    }
}
