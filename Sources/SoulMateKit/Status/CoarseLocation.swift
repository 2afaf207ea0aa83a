import Foundation

/// A partner's position, rounded to 0.01° of latitude and longitude (about 1.1 km north–south)
/// on the phone, before it is sealed and shared: the partner learns a neighbourhood, not an
/// address. Format and sealing: docs/soulmate-device.md, "Location".
public struct CoarseLocation: Equatable, Hashable, Sendable {
    /// The grid step, in degrees.
    public static let step = 0.01
    /// The Earth's mean radius (IUGG), in metres, for `distance(to:)`.
    public static let earthRadiusMeters = 6_371_008.8

    /// Latitude in hundredths of a degree, −9000 … 9000.
    public let latitudeHundredths: Int
    /// Longitude in hundredths of a degree, −18000 … 18000.
    public let longitudeHundredths: Int
    /// When the position was taken, to the second.
    public let at: Date

    /// A position rounded to the grid.
    /// - Parameters:
    ///   - latitude: degrees, −90 … 90.
    ///   - longitude: degrees, −180 … 180.
    ///   - at: when it was taken (rounded down to the second).
    /// - Throws: `SoulMateKitError.invalidLocation` for a value out of range or not finite.
    public init(latitude: Double, longitude: Double, at: Date) throws(SoulMateKitError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw .invalidLocation("latitude must be between -90 and 90 degrees")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw .invalidLocation("longitude must be between -180 and 180 degrees")
        }
        let seconds = at.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, (0...253_402_300_799).contains(seconds) else {
            throw .invalidLocation("the time must be between 1970 and 9999")
        }
        latitudeHundredths = Int((latitude * 100).rounded())
        longitudeHundredths = Int((longitude * 100).rounded())
        self.at = Date(timeIntervalSince1970: seconds)
    }

    /// Latitude in degrees, on the 0.01° grid.
    public var latitude: Double { Double(latitudeHundredths) / 100 }
    /// Longitude in degrees, on the 0.01° grid.
    public var longitude: Double { Double(longitudeHundredths) / 100 }

    /// The great-circle distance to another position (haversine, mean Earth radius).
    /// - Returns: metres.
    public func distance(to other: CoarseLocation) -> Double {
        let radians = Double.pi / 180
        let φ1 = latitude * radians, φ2 = other.latitude * radians
        let Δφ = (other.latitude - latitude) * radians
        let Δλ = (other.longitude - longitude) * radians
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * Self.earthRadiusMeters * asin(min(1, h.squareRoot()))
    }
}
