import Foundation
import KindredClient
import KindredCrypto
import SoulMateAPI

/// What the status screen shows: since when, how many days, how far apart.
public struct PairStatus: Sendable, Equatable {
    /// The pair's start.
    public var togetherSince: Date
    /// Day 1 is the first day, in the phone's time zone.
    public var dayCount: Int
    /// Metres between the two coarse locations, when both have shared one.
    public var distanceMeters: Double?
    /// When the partner's location was taken.
    public var partnerLocationAt: Date?
}

/// Relationship status and the distance between partners, computed on the phone from coarse
/// locations the two exchange sealed with the pair key (the server never sees a position).
extension SoulMateDevice {
    /// Seals this phone's coarse location (rounded to 0.01°) and shares it with the partner.
    public func shareLocation(latitude: Double, longitude: Double) async throws(SoulMateKitError) -> CoarseLocation {
        let pair = try await currentPair()
        let location = try CoarseLocation(latitude: latitude, longitude: longitude, at: now())
        let sealed = try location.seal(with: try await chatKey(for: pair))
        let output = try await call { [app] in
            try await $0.putSoulMateLocation(headers: .init(xKindredApp: app), body: .json(.init(ciphertext: sealed)))
        }
        guard case .ok = output else { throw Self.failure(output) }
        try writeJSON(LocationMemo(latitudeHundredths: location.latitudeHundredths, longitudeHundredths: location.longitudeHundredths, at: location.at), .soulmateLastLocation)
        return location
    }

    /// Since when, the day count, and the distance when both partners have shared a location.
    public func status(timeZone: TimeZone = .current) async throws(SoulMateKitError) -> PairStatus {
        guard let pair = try await refreshPair() else { throw .notPaired }
        let days = try RelationshipStatus(togetherSince: pair.since).dayCount(at: now(), in: timeZone)
        var status = PairStatus(togetherSince: pair.since, dayCount: days)
        let output = try await call { [app] in try await $0.getSoulMatePartnerLocation(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let sealed) = ok.body else {
            let failure = Self.failure(output)
            if failure.serverCode == "no_location" { return status }
            throw failure
        }
        let partner = try CoarseLocation.open(sealed.ciphertext, with: try await chatKey(for: pair))
        status.partnerLocationAt = partner.at
        if let mine = try readJSON(LocationMemo.self, .soulmateLastLocation) {
            let me = try CoarseLocation(latitude: Double(mine.latitudeHundredths) / 100, longitude: Double(mine.longitudeHundredths) / 100, at: mine.at)
            status.distanceMeters = me.distance(to: partner)
        }
        return status
    }
}

/// This phone's last shared coarse location (kept in the secure store, never in plaintext files).
struct LocationMemo: Codable {
    var latitudeHundredths: Int
    var longitudeHundredths: Int
    var at: Date
}

extension SecureStoreItem {
    /// The coarse location this phone last shared (JSON).
    static let soulmateLastLocation = SecureStoreItem("soulmate.last-location")
}
