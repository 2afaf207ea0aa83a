import KindredAPI
import OpenAPIRuntime

extension KindredSession {
    /// The signed-in account.
    /// - Throws: `KindredClientError` (`notSignedIn`, `sessionExpired`, a server error).
    public func me() async throws(KindredClientError) -> Components.Schemas.User {
        let output = try await authorizedCall { [app] in try await $0.getMe(headers: .init(xKindredApp: app)) }
        switch output {
        case .ok(let answer):
            switch answer.body { case .json(let user): return user }
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Changes the profile: present fields are set (an empty string clears one), absent ones kept.
    /// - Throws: `KindredClientError` (`invalid_profile`, `invalid_time_zone`, …).
    public func updateMe(_ update: Components.Schemas.ProfileUpdate) async throws(KindredClientError) -> Components.Schemas.User {
        let output = try await authorizedCall { [app] in try await $0.updateMe(headers: .init(xKindredApp: app), body: .json(update)) }
        switch output {
        case .ok(let answer):
            switch answer.body { case .json(let user): return user }
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Everything the server holds about the account.
    public func exportAccount() async throws(KindredClientError) -> Components.Schemas.AccountExport {
        let output = try await authorizedCall { [app] in try await $0.exportMe(headers: .init(xKindredApp: app)) }
        switch output {
        case .ok(let answer):
            switch answer.body { case .json(let export): return export }
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Deletes the account and everything it owns, then removes the session from the store.
    public func deleteAccount() async throws(KindredClientError) {
        let output = try await authorizedCall { [app] in try await $0.deleteMe(headers: .init(xKindredApp: app)) }
        switch output {
        case .noContent: try await forget()
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Adds an e-mail address and password to the account (an anonymous one becomes permanent).
    /// - Throws: `KindredClientError` (`credential_in_use`, `already_linked`, `weak_password`).
    public func linkPassword(email: String, password: String) async throws(KindredClientError) -> Components.Schemas.User {
        let body = Components.Schemas.PasswordCredentials(email: email, password: password)
        let output = try await authorizedCall { [app] in try await $0.linkPassword(headers: .init(xKindredApp: app), body: .json(body)) }
        switch output {
        case .ok(let answer):
            switch answer.body { case .json(let user): return user }
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Adds Sign in with Apple to the account.
    /// - Throws: `KindredClientError` (`credential_in_use`, `invalid_identity_token`).
    public func linkApple(
        idToken: String, nonce: IdentityNonce? = nil, firstName: String? = nil, lastName: String? = nil
    ) async throws(KindredClientError) -> Components.Schemas.User {
        let body = Components.Schemas.IdentityTokenSignIn(idToken: idToken, nonce: nonce?.value, firstName: firstName, lastName: lastName)
        let output = try await authorizedCall { [app] in try await $0.linkApple(headers: .init(xKindredApp: app), body: .json(body)) }
        switch output {
        case .ok(let answer):
            switch answer.body { case .json(let user): return user }
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Adds Google Sign-In to the account.
    /// - Throws: `KindredClientError` (`credential_in_use`, `invalid_identity_token`).
    public func linkGoogle(idToken: String, nonce: IdentityNonce? = nil) async throws(KindredClientError) -> Components.Schemas.User {
        let body = Components.Schemas.IdentityTokenSignIn(idToken: idToken, nonce: nonce?.value)
        let output = try await authorizedCall { [app] in try await $0.linkGoogle(headers: .init(xKindredApp: app), body: .json(body)) }
        switch output {
        case .ok(let answer):
            switch answer.body { case .json(let user): return user }
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Revokes the session on the server, then removes it from the store.
    ///
    /// A session the server no longer knows (revoked, expired, account deleted) is removed all
    /// the same. When the server cannot be reached the session stays stored, so the logout can be
    /// retried.
    /// - Throws: `notSignedIn` when there is no session; a transport or unexpected server error.
    public func logOut() async throws(KindredClientError) {
        _ = try await requireSession()
        do throws(KindredClientError) {
            let output = try await authorizedCall { [app] in try await $0.logOut(headers: .init(xKindredApp: app)) }
            switch output {
            case .noContent: break
            case .default(let status, _) where status == 401: break  // already gone on the server
            case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
            }
        } catch .sessionExpired {
            return  // the refresh was refused and the store already cleared
        }
        try await forget()
    }
}
