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

    /// The values, in one shared immutable box: every request copies its app's configuration
    /// several times (context, request scope, handlers), and a copy of the eleven fields retained
    /// and released each string and array in them, on objects every request on every core shares.
    /// A copy is now one reference; a setter (configuration time only) makes a new box.
    private final class Box: Sendable {
        let values: Values
        init(_ values: Values) { self.values = values }
    }

    private struct Values: Sendable, Equatable {
        var id: AppID
        var displayName: String
        var enabled: Bool
        var storesEmail: Bool
        var requiresFullName: Bool = false
        var requiresIdentityNonce: Bool = false
        var authProviders: [AuthProvider]
        var appleAudiences: [String]
        var googleAudiences: [String]
        var appleJWKS: JWKSSource = IdentityProvider.apple.defaultJWKS
        var googleJWKS: JWKSSource = IdentityProvider.google.defaultJWKS
        var apns: APNsSettings? = nil
        var fcm: FCMSettings? = nil
    }

    private var box: Box

    private mutating func update(_ change: (inout Values) -> Void) {
        var values = box.values
        change(&values)
        box = Box(values)
    }

    public static func == (lhs: AppConfiguration, rhs: AppConfiguration) -> Bool {
        lhs.box === rhs.box || lhs.box.values == rhs.box.values
    }

    /// The app.
    public var id: AppID {
        get { box.values.id }
        set { update { $0.id = newValue } }
    }
    /// The name shown to people (admin pages, e-mails).
    public var displayName: String {
        get { box.values.displayName }
        set { update { $0.displayName = newValue } }
    }
    /// Whether the deployment serves it; requests for a disabled app get `app_disabled`.
    public var enabled: Bool {
        get { box.values.enabled }
        set { update { $0.enabled = newValue } }
    }
    /// Whether the server may keep the user's e-mail address (false for Ex-Eraser).
    public var storesEmail: Bool {
        get { box.values.storesEmail }
        set { update { $0.storesEmail = newValue } }
    }
    /// Whether an e-mail sign-up must give a first and a last name (SoulMate's rule); accounts
    /// without them (older ones, Apple or Google sign-ins) complete their profile in the app.
    public var requiresFullName: Bool {
        get { box.values.requiresFullName }
        set { update { $0.requiresFullName = newValue } }
    }
    /// Whether an Apple or Google sign-in must carry a nonce (`apps.<app>.requireIdentityNonce`):
    /// the request's `nonce`, whose SHA-256 hex the token's `nonce` claim must be. A token that
    /// has a `nonce` claim is always checked against the request's, required or not.
    public var requiresIdentityNonce: Bool {
        get { box.values.requiresIdentityNonce }
        set { update { $0.requiresIdentityNonce = newValue } }
    }
    /// The sign-in methods the app accepts.
    public var authProviders: [AuthProvider] {
        get { box.values.authProviders }
        set { update { $0.authProviders = newValue } }
    }
    /// The accepted `aud` values of Apple identity tokens.
    public var appleAudiences: [String] {
        get { box.values.appleAudiences }
        set { update { $0.appleAudiences = newValue } }
    }
    /// The accepted `aud` values of Google identity tokens.
    public var googleAudiences: [String] {
        get { box.values.googleAudiences }
        set { update { $0.googleAudiences = newValue } }
    }
    /// Where Apple's signing keys come from (Apple's URL by default).
    public var appleJWKS: JWKSSource {
        get { box.values.appleJWKS }
        set { update { $0.appleJWKS = newValue } }
    }
    /// Where Google's signing keys come from (Google's URL by default).
    public var googleJWKS: JWKSSource {
        get { box.values.googleJWKS }
        set { update { $0.googleJWKS = newValue } }
    }
    /// APNs credentials; pushes to APNs tokens are logged, not sent, when nil.
    public var apns: APNsSettings? {
        get { box.values.apns }
        set { update { $0.apns = newValue } }
    }
    /// FCM credentials; pushes to FCM tokens are logged, not sent, when nil.
    public var fcm: FCMSettings? {
        get { box.values.fcm }
        set { update { $0.fcm = newValue } }
    }

    /// Creates an app configuration.
    public init(
        id: AppID, displayName: String, enabled: Bool = true, storesEmail: Bool = true,
        authProviders: [AuthProvider] = AuthProvider.allCases,
        appleAudiences: [String], googleAudiences: [String]
    ) {
        box = Box(
            Values(
                id: id, displayName: displayName, enabled: enabled, storesEmail: storesEmail,
                authProviders: authProviders, appleAudiences: appleAudiences, googleAudiences: googleAudiences
            )
        )
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
        var app = AppConfiguration(
            id: id, displayName: displayName, storesEmail: id != .exeraser,
            // Ex-Eraser keeps no e-mail, so it has no password sign-in: Apple and Google keep only `sub`.
            authProviders: id == .exeraser ? [.apple, .google] : AuthProvider.allCases,
            appleAudiences: ["dev.kindred.\(id.rawValue)"],
            googleAudiences: ["dev.kindred.\(id.rawValue).apps.googleusercontent.com"]
        )
        // SoulMate's sign-up form asks for both names (seed 003).
        app.requiresFullName = id == .soulmate
        return app
    }
}
