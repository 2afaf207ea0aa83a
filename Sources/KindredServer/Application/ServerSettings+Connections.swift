import Configuration
import KindredServerCore

extension ServerSettings {
    /// The `server.*` keys: `server.idleTimeoutSeconds` (60), `server.requestHeadTimeoutSeconds`
    /// (10), `server.requestBodyTimeoutSeconds` (60), `server.responseWriteTimeoutSeconds` (30)
    /// and `server.maxConnections` (4096).
    static func resolveConnections(_ config: ConfigReader) throws -> ConnectionSettings {
        var settings = ConnectionSettings()
        func within(_ name: String, _ fallback: Int, _ range: ClosedRange<Int>) throws -> Int {
            let value = config.int(forKey: ConfigKey(["server", name]), default: fallback)
            guard range.contains(value) else {
                throw Invalid(description: "server.\(name) must be \(range.lowerBound) to \(range.upperBound), not \(value)")
            }
            return value
        }
        func seconds(_ duration: Duration) -> Int { Int(duration.components.seconds) }
        settings.idleTimeout = .seconds(try within("idleTimeoutSeconds", seconds(settings.idleTimeout), 1...3_600))
        settings.requestHeadTimeout = .seconds(
            try within("requestHeadTimeoutSeconds", seconds(settings.requestHeadTimeout), 1...600)
        )
        settings.requestBodyTimeout = .seconds(
            try within("requestBodyTimeoutSeconds", seconds(settings.requestBodyTimeout), 1...3_600)
        )
        settings.writeStallTimeout = .seconds(
            try within("responseWriteTimeoutSeconds", seconds(settings.writeStallTimeout), 1...3_600)
        )
        settings.maxConnections = try within("maxConnections", settings.maxConnections, 1...1_000_000)
        return settings
    }
}
