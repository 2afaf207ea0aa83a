/// What differs between the apps of one deployment. Plain data: the code that acts on it
/// (sign-in, push, billing) reads these values and has no per-app branches of its own.
public struct AppConfiguration: Sendable, Equatable {
    /// A sign-in method an app accepts.
    public enum AuthProvider: String, Sendable, Equatable, CaseIterable {
        /// E-mail and password (only for apps that store e-mail addresses).
        case password
        /// Sign in with Apple (identity token audience: the app's bundle or services id).
        case apple
        /// Google Sign-In (identity token audience: the app's OAuth client ids).
        case google
    }

    /// The app.
    public var id: AppID
    /// The name shown to people (admin pages, e-mails).
    public var displayName: String
    /// Whether the deployment serves it; requests for a disabled app get `app_disabled`.
    public var enabled: Bool
    /// Whether the server may keep the user's e-mail address (false for Ex-Eraser).
    public var storesEmail: Bool
    /// The sign-in methods the app accepts.
    public var authProviders: [AuthProvider]
    /// The accepted `aud` values of Apple identity tokens.
    public var appleAudiences: [String]
    /// The accepted `aud` values of Google identity tokens.
    public var googleAudiences: [String]
    /// Where Apple's signing keys come from (Apple's URL by default).
    public var appleJWKS: JWKSSource = IdentityProvider.apple.defaultJWKS
    /// Where Google's signing keys come from (Google's URL by default).
    public var googleJWKS: JWKSSource = IdentityProvider.google.defaultJWKS
    /// APNs credentials; pushes to APNs tokens are logged, not sent, when nil.
    public var apns: APNsSettings?
    /// FCM credentials; pushes to FCM tokens are logged, not sent, when nil.
    public var fcm: FCMSettings?

    /// Creates an app configuration.
    public init(
        id: AppID, displayName: String, enabled: Bool = true, storesEmail: Bool = true,
        authProviders: [AuthProvider] = AuthProvider.allCases,
        appleAudiences: [String], googleAudiences: [String]
    ) {
        self.id = id
        self.displayName = displayName
        self.enabled = enabled
        self.storesEmail = storesEmail
        self.authProviders = authProviders
        self.appleAudiences = appleAudiences
        self.googleAudiences = googleAudiences
    }

    /// The development default of an app: enabled, Apple and Google sign-in with placeholder
    /// audiences (`dev.kindred.<app>`), e-mail stored except for Ex-Eraser.
    public static func developmentDefault(for id: AppID) -> AppConfiguration {
        let displayName = switch id {
        case .closer: "Closer"
        case .soulmate: "SoulMate"
        case .streaksync: "StreakSync"
        case .exeraser: "Ex-Eraser"
        case .pulse: "Pulse"
        }
        return AppConfiguration(
            id: id, displayName: displayName, storesEmail: id != .exeraser,
            // Ex-Eraser keeps no e-mail, so it has no password sign-in: Apple and Google keep only `sub`.
            authProviders: id == .exeraser ? [.apple, .google] : AuthProvider.allCases,
            appleAudiences: ["dev.kindred.\(id.rawValue)"],
            googleAudiences: ["dev.kindred.\(id.rawValue).apps.googleusercontent.com"]
        )
    }
}
