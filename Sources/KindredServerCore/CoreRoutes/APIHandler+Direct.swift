import Foundation
import Hummingbird
import KindredAPI

extension APIHandler {
    /// The operations the transport serves directly (see `DirectRoutes`): the hottest ones,
    /// each with the same answer as its generated path (`DirectRoutesTests`).
    func directRoutes() -> DirectRoutes {
        var routes = DirectRoutes()
        let health = Array(#"{"status":"ok"}"#.utf8)
        routes.add(.get, "/health") { _, _ in DirectRoutes.json(health) }
        let accounts = accounts
        routes.add(.get, "/v1/me") { _, _ in
            let me = try await accounts.me(try RequestScope.require(), app: try RequestScope.requireApp())
            return DirectRoutes.json(try me.jsonBytes())
        }
        routes.add(.post, "/v1/auth/anonymous") { _, _ in
            let signedIn = try await accounts.signUpAnonymously(
                scope: try RequestScope.require(), app: try RequestScope.requireApp()
            )
            return DirectRoutes.json(try signedIn.session.jsonBytes(), status: .created)
        }
        return routes
    }
}

extension Components.Schemas.User {
    /// The account as `JSONEncoder` writes it with the server's options (sorted keys).
    package func jsonBytes() throws -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 320)
        writer.string("app", app.rawValue)
        writer.string("createdAt", try InternetDateTranscoder().encode(createdAt))
        writer.string("displayName", displayName)
        writer.string("email", email)
        writer.string("firstName", firstName)
        writer.bool("hasPremium", hasPremium)
        writer.string("id", id)
        writer.bool("isAnonymous", isAnonymous)
        writer.string("lastName", lastName)
        writer.string("locale", locale)
        writer.string("photoURL", photoURL)
        writer.strings("providers", providers.lazy.map(\.rawValue))
        writer.string("timeZone", timeZone)
        return writer.finish()
    }
}

extension Components.Schemas.Session {
    /// The session as `JSONEncoder` writes it with the server's options (sorted keys).
    package func jsonBytes() throws -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 640)
        writer.string("accessToken", accessToken)
        writer.integer("expiresIn", Int64(expiresIn))
        writer.bool("isNewUser", isNewUser)
        writer.string("refreshToken", refreshToken)
        writer.string("tokenType", tokenType.rawValue)
        writer.raw("user", try user.jsonBytes())
        return writer.finish()
    }
}
