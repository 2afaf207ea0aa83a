import KindredAPI
import OpenAPIRuntime

extension KindredSession {
    /// Creates an anonymous account and signs it in (replacing any stored session).
    /// - Throws: `KindredClientError` (`rate_limited` after too many from one address).
    @discardableResult
    public func signUpAnonymously() async throws(KindredClientError) -> SignedIn {
        let output = try await call { try await $0.signUpAnonymously(headers: .init(xKindredApp: app)) }
        switch output {
        case .created(let answer): return try await adopt(Self.issued(answer))
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Creates an account with an e-mail address and a password and signs it in.
    /// SoulMate requires `firstName` and `lastName` (422 `invalid_profile` without them).
    /// - Throws: `KindredClientError` (`email_taken`, `invalid_email`, `weak_password`, `provider_disabled`,
    ///   `invalid_profile`).
    @discardableResult
    public func signUp(
        email: String, password: String, displayName: String? = nil, firstName: String? = nil, lastName: String? = nil
    ) async throws(KindredClientError) -> SignedIn {
        let body = Components.Schemas.PasswordSignUp(
            email: email, password: password, displayName: displayName, firstName: firstName, lastName: lastName
        )
        let output = try await call { try await $0.signUpWithPassword(headers: .init(xKindredApp: app), body: .json(body)) }
        switch output {
        case .created(let answer): return try await adopt(Self.issued(answer))
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Signs in with an e-mail address and a password.
    /// - Throws: `KindredClientError` (`invalid_credentials`, `rate_limited`, `account_disabled`).
    @discardableResult
    public func logIn(email: String, password: String) async throws(KindredClientError) -> SignedIn {
        let body = Components.Schemas.PasswordCredentials(email: email, password: password)
        let output = try await call { try await $0.logInWithPassword(headers: .init(xKindredApp: app), body: .json(body)) }
        switch output {
        case .ok(let answer): return try await adopt(Self.issued(answer))
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Signs in with an Apple identity token, creating the account on first use. Pass the
    /// `IdentityNonce` whose `sha256Hex` the app gave Apple; a token is good for one sign-in.
    /// - Throws: `KindredClientError` (`invalid_identity_token`, `identity_token_reused`, `nonce_required`).
    @discardableResult
    public func signInWithApple(
        idToken: String, nonce: IdentityNonce? = nil, firstName: String? = nil, lastName: String? = nil
    ) async throws(KindredClientError) -> SignedIn {
        let body = Components.Schemas.IdentityTokenSignIn(idToken: idToken, nonce: nonce?.value, firstName: firstName, lastName: lastName)
        let output = try await call { try await $0.signInWithApple(headers: .init(xKindredApp: app), body: .json(body)) }
        switch output {
        case .ok(let answer): return try await adopt(Self.issued(answer))
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Signs in with a Google ID token, creating the account on first use. Pass the
    /// `IdentityNonce` whose `sha256Hex` the app gave Google; a token is good for one sign-in.
    /// - Throws: `KindredClientError` (`invalid_identity_token`, `identity_token_reused`, `nonce_required`).
    @discardableResult
    public func signInWithGoogle(idToken: String, nonce: IdentityNonce? = nil) async throws(KindredClientError) -> SignedIn {
        let body = Components.Schemas.IdentityTokenSignIn(idToken: idToken, nonce: nonce?.value)
        let output = try await call { try await $0.signInWithGoogle(headers: .init(xKindredApp: app), body: .json(body)) }
        switch output {
        case .ok(let answer): return try await adopt(Self.issued(answer))
        case .default(let status, let answer): throw KindredClientError(status: status, answer: answer)
        }
    }

    /// Runs one call of the generated client without the session (sign-in calls), classifying
    /// what it throws.
    func call<Output: Sendable>(
        _ operation: @Sendable (Client) async throws -> Output
    ) async throws(KindredClientError) -> Output {
        do {
            return try await operation(anonymousClient)
        } catch {
            throw KindredClientError(error)
        }
    }

    /// Runs one call of the generated client as this session, classifying what it throws (also
    /// for app kits such as CloserKit that call their own operations).
    public func authorizedCall<Output: Sendable>(
        _ operation: @Sendable (Client) async throws -> Output
    ) async throws(KindredClientError) -> Output {
        do {
            return try await operation(client)
        } catch {
            throw KindredClientError(error)
        }
    }

    /// The session in a sign-in answer.
    static func issued(_ answer: Components.Responses.Session) -> Components.Schemas.Session {
        switch answer.body {
        case .json(let session): session
        }
    }
}
