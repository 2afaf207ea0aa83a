import KindredAPI
import Foundation

/// What a device keeps of a signed-in session: where and as whom, and its two tokens.
public struct StoredSession: Codable, Equatable, Sendable {
    /// The server the session belongs to.
    public var serverURL: URL
    /// The app (`X-Kindred-App`) the account belongs to.
    public var app: Components.Schemas.AppID
    /// The account id.
    public var userID: String
    /// The bearer access token (a JWT).
    public var accessToken: String
    /// When the access token stops working (from the answer's `expiresIn`).
    public var accessTokenExpiresAt: Date
    /// The single-use refresh token; replaced on every refresh.
    public var refreshToken: String

    /// A stored session from its parts.
    public init(serverURL: URL, app: Components.Schemas.AppID, userID: String, accessToken: String,
                accessTokenExpiresAt: Date, refreshToken: String) {
        self.serverURL = serverURL
        self.app = app
        self.userID = userID
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
    }
}
