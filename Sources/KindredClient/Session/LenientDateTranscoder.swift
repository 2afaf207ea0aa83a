import Foundation
import KindredAPI
import OpenAPIRuntime

/// The client's `date-time` transcoder: writes RFC 3339 without fractional seconds, as the
/// contract's generated server does, and reads it with or without them, so a server that
/// adds milliseconds (`2026-01-02T03:04:05.250Z`) does not break older clients.
struct LenientDateTranscoder: DateTranscoder {
    private let plain = InternetDateTranscoder()
    private let fractional: ISO8601DateTranscoder = .iso8601WithFractionalSeconds

    func encode(_ date: Date) throws -> String {
        try plain.encode(date)
    }

    /// The server's whole-second form by arithmetic (`InternetDateTranscoder`); anything else
    /// through the formatters.
    func decode(_ text: String) throws -> Date {
        if let date = try? plain.decode(text) { return date }
        return try fractional.decode(text)
    }
}

extension Configuration {
    /// The configuration of every client a `KindredSession` makes.
    static var kindredClient: Configuration {
        Configuration(dateTranscoder: LenientDateTranscoder())
    }
}
