import Foundation
import SQLKit

/// One recorded verification outcome for (user, device, app), as stored and listed.
public struct IntegrityVerdictRecord: Sendable, Hashable, Codable {
    /// The record's id.
    public var id: String
    /// The user whose device it is.
    public var userID: String
    /// The app the verdict is for.
    public var app: String
    /// The device: an App Attest key id (base64) or a Play Integrity device id.
    public var device: String
    /// `app_attest` or `play_integrity`.
    public var platform: String
    /// `passed` or `failed`.
    public var verdict: String
    /// Why a verification failed (nil when it passed).
    public var reason: String?
    /// When it was recorded.
    public var recordedAt: Date

    /// The verdict read from a `kindred_integrity_verdicts` row.
    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: String.self)
        userID = try row.decode(column: "user_id", as: String.self)
        app = try row.decode(column: "app", as: String.self)
        device = try row.decode(column: "device", as: String.self)
        platform = try row.decode(column: "platform", as: String.self)
        verdict = try row.decode(column: "verdict", as: String.self)
        reason = try row.decode(column: "reason", as: String?.self)
        recordedAt = Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self))
    }
}

/// The platform a verdict came from.
enum IntegrityPlatform: String, Sendable {
    /// Apple App Attest (attestation or assertion).
    case appAttest = "app_attest"
    /// Google Play Integrity.
    case playIntegrity = "play_integrity"
}
