import Configuration
import KindredServerCore

extension ServerSettings {
    /// `operations.token` (`KINDRED_OPERATIONS_TOKEN`): the bearer token remote clients read
    /// `/metrics` and `/ready` with. A secret, so never a flag; at least 32 visible ASCII
    /// characters (`openssl rand -hex 32`). Unset: only clients on this machine may read them.
    static func resolveOperationsToken(_ config: ConfigReader) throws -> String? {
        guard let token = config.string(forKey: ConfigKey(["operations", "token"]), isSecret: true), !token.isEmpty else { return nil }
        guard token.utf8.count >= 32, token.utf8.count <= 512, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Invalid(description: "operations.token must be 32–512 visible ASCII characters (for example: openssl rand -hex 32)")
        }
        return token
    }
}
