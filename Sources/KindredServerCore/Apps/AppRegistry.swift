/// The apps a deployment serves, looked up by the `X-Kindred-App` header of each request.
public struct AppRegistry: Sendable, Equatable {
    /// Why a header value does not name a servable app.
    public enum LookupError: Error, Equatable, Sendable {
        /// The header is absent or empty.
        case missing
        /// The header names no app of this deployment.
        case unknown(String)
        /// The app exists but this deployment has it switched off.
        case disabled(AppID)
    }

    /// Every app's configuration, one per `AppID`.
    public let apps: [AppID: AppConfiguration]

    /// Creates a registry; an app without a configuration is not served.
    public init(_ configurations: [AppConfiguration]) {
        var apps: [AppID: AppConfiguration] = [:]
        for configuration in configurations { apps[configuration.id] = configuration }
        self.apps = apps
    }

    /// All five apps, enabled, with their development defaults.
    public static let developmentDefaults = AppRegistry(AppID.allCases.map(AppConfiguration.developmentDefault(for:)))

    /// The configuration of the app a request names.
    /// - Parameter headerValue: the `X-Kindred-App` value, or nil when absent.
    /// - Returns: the enabled app's configuration.
    /// - Throws: `LookupError`.
    public func app(named headerValue: String?) throws(LookupError) -> AppConfiguration {
        guard let headerValue, !headerValue.isEmpty else { throw .missing }
        guard let id = AppID(rawValue: headerValue), let configuration = apps[id] else {
            throw .unknown(headerValue)
        }
        guard configuration.enabled else { throw .disabled(id) }
        return configuration
    }
}
