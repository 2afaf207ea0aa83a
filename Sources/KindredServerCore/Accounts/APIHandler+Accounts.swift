import KindredAPI
import OpenAPIRuntime

/// The accounts operations of the generated protocol (`/v1/auth/*`, `/v1/me*`).
extension APIHandler {
    func signUpAnonymously(_ input: Operations.SignUpAnonymously.Input) async throws -> Operations.SignUpAnonymously.Output {
        let scope = try RequestScope.require()
        let signedIn = try await accounts.signUpAnonymously(scope: scope, app: try RequestScope.requireApp())
        return .created(.init(body: .json(signedIn.session)))
    }

    func signUpWithPassword(_ input: Operations.SignUpWithPassword.Input) async throws -> Operations.SignUpWithPassword.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let signedIn = try await accounts.signUp(
            email: body.email, password: body.password, displayName: body.displayName, firstName: body.firstName,
            lastName: body.lastName, scope: try RequestScope.require(), app: try RequestScope.requireApp()
        )
        return .created(.init(body: .json(signedIn.session)))
    }

    func logInWithPassword(_ input: Operations.LogInWithPassword.Input) async throws -> Operations.LogInWithPassword.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let signedIn = try await accounts.logIn(
            email: body.email, password: body.password, scope: try RequestScope.require(), app: try RequestScope.requireApp()
        )
        return .ok(.init(body: .json(signedIn.session)))
    }

    func signInWithApple(_ input: Operations.SignInWithApple.Input) async throws -> Operations.SignInWithApple.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let signedIn = try await accounts.signIn(
            provider: .apple, idToken: body.idToken, nonce: body.nonce, firstName: body.firstName, lastName: body.lastName,
            app: try RequestScope.requireApp()
        )
        return .ok(.init(body: .json(signedIn.session)))
    }

    func signInWithGoogle(_ input: Operations.SignInWithGoogle.Input) async throws -> Operations.SignInWithGoogle.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let signedIn = try await accounts.signIn(
            provider: .google, idToken: body.idToken, nonce: body.nonce, firstName: body.firstName, lastName: body.lastName,
            app: try RequestScope.requireApp()
        )
        return .ok(.init(body: .json(signedIn.session)))
    }

    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let scope = try RequestScope.require()
        let signedIn = try await accounts.refresh(body.refreshToken, app: try RequestScope.requireApp(), logger: scope.logger)
        return .ok(.init(body: .json(signedIn.session)))
    }

    func logOut(_ input: Operations.LogOut.Input) async throws -> Operations.LogOut.Output {
        let user = try await authenticated()
        try await accounts.tokens.revoke(sessionID: user.sessionID)
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        .ok(.init(body: .json(try await accounts.me(try RequestScope.require(), app: try RequestScope.requireApp()))))
    }

    func updateMe(_ input: Operations.UpdateMe.Input) async throws -> Operations.UpdateMe.Output {
        let user = try await authenticated()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await accounts.update(user, with: body))))
    }

    func deleteMe(_ input: Operations.DeleteMe.Input) async throws -> Operations.DeleteMe.Output {
        let user = try await authenticated()
        try await accounts.delete(user)
        return .noContent(.init())
    }

    func exportMe(_ input: Operations.ExportMe.Input) async throws -> Operations.ExportMe.Output {
        let user = try await authenticated()
        return .ok(.init(body: .json(try await accounts.export(user))))
    }

    func linkPassword(_ input: Operations.LinkPassword.Input) async throws -> Operations.LinkPassword.Output {
        let user = try await authenticated()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let updated = try await accounts.linkPassword(
            user, email: body.email, password: body.password, app: try RequestScope.requireApp()
        )
        return .ok(.init(body: .json(updated)))
    }

    func linkApple(_ input: Operations.LinkApple.Input) async throws -> Operations.LinkApple.Output {
        let user = try await authenticated()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let updated = try await accounts.linkIdentity(user, provider: .apple, idToken: body.idToken, nonce: body.nonce, app: try RequestScope.requireApp())
        return .ok(.init(body: .json(updated)))
    }

    func linkGoogle(_ input: Operations.LinkGoogle.Input) async throws -> Operations.LinkGoogle.Output {
        let user = try await authenticated()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let updated = try await accounts.linkIdentity(user, provider: .google, idToken: body.idToken, nonce: body.nonce, app: try RequestScope.requireApp())
        return .ok(.init(body: .json(updated)))
    }

    /// The account of the request's bearer token (for every domain's handlers).
    func authenticatedUser() async throws -> AuthenticatedUser {
        try await authenticated()
    }

    /// The account of the request's bearer token.
    private func authenticated() async throws -> AuthenticatedUser {
        let scope = try RequestScope.require()
        return try await accounts.authenticate(scope, app: try RequestScope.requireApp())
    }
}
