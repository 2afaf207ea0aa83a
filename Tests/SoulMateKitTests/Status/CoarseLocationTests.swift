import Foundation
import KindredCrypto
@testable import SoulMateKit
import Testing

@Suite struct CoarseLocationTests {
    static let when = Date(timeIntervalSince1970: 1_760_000_000.75)
    static let key = try! SoulMateChatKey(keyBytes: Array(0..<32))

    @Test func positionsAreRoundedToTheGridBeforeAnythingElse() throws {
        let istanbul = try CoarseLocation(latitude: 41.0082, longitude: 28.9784, at: Self.when)
        #expect(istanbul.latitude == 41.01 && istanbul.longitude == 28.98)
        #expect(istanbul.at == Date(timeIntervalSince1970: 1_760_000_000))
        #expect(istanbul.json == #"{"at":1760000000,"lat":41.01,"lon":28.98}"#)
        let south = try CoarseLocation(latitude: -0.5049, longitude: -179.999, at: Self.when)
        #expect(south.json == #"{"at":1760000000,"lat":-0.50,"lon":-180.00}"#)
        #expect(try CoarseLocation(latitude: 0.001, longitude: 0, at: Self.when).json == #"{"at":1760000000,"lat":0.00,"lon":0.00}"#)
        #expect(try CoarseLocation(latitude: 89.996, longitude: 180, at: Self.when).latitude == 90)
    }

    @Test(arguments: [(90.0001, 0.0), (-90.5, 0.0), (0.0, 180.01), (0.0, -181.0), (Double.nan, 0.0), (0.0, Double.infinity)])
    func outOfRangeIsRefused(place: (Double, Double)) {
        #expect(throws: SoulMateKitError.self) { try CoarseLocation(latitude: place.0, longitude: place.1, at: Self.when) }
    }

    @Test func distancesMatchKnownValues() throws {
        let istanbul = try CoarseLocation(latitude: 41.01, longitude: 28.98, at: Self.when)
        let ankara = try CoarseLocation(latitude: 39.93, longitude: 32.86, at: Self.when)
        #expect(abs(istanbul.distance(to: ankara) - 349_454.74) < 0.5)
        #expect(ankara.distance(to: istanbul) == istanbul.distance(to: ankara))
        #expect(istanbul.distance(to: istanbul) == 0)
        let origin = try CoarseLocation(latitude: 0, longitude: 0, at: Self.when)
        #expect(abs(origin.distance(to: try CoarseLocation(latitude: 0.01, longitude: 0, at: Self.when)) - 1_111.95) < 0.01)
        #expect(abs(origin.distance(to: try CoarseLocation(latitude: 0, longitude: 180, at: Self.when)) - 20_015_114.44) < 0.01)
        // Two points 30 m apart on either side of a grid line snap to diagonal neighbours, 1.4 km apart.
        let a = try CoarseLocation(latitude: 41.0449, longitude: 29.0049, at: Self.when)
        let b = try CoarseLocation(latitude: 41.0451, longitude: 29.0051, at: Self.when)
        #expect(abs(a.distance(to: b) - 1_392.74) < 0.01)
        #expect(SoulMateStrings(language: .english).distance(meters: istanbul.distance(to: ankara)) == "349 km apart")
    }

    @Test func sealedLocationsOpenOnlyWithThePairKey() throws {
        let place = try CoarseLocation(latitude: 41.0082, longitude: 28.9784, at: Self.when)
        let sealed = try place.seal(with: Self.key)
        #expect(sealed != (try place.seal(with: Self.key)), "a fresh nonce each time")
        #expect(sealed.utf8.count <= CoarseLocation.maximumSealedLength)
        #expect(try Base64.decode(sealed, alphabet: .standard).count == 12 + place.json.utf8.count + 16)
        #expect(try CoarseLocation.open(sealed, with: Self.key) == place)
        let other = try SoulMateChatKey(keyBytes: Array(repeating: 7, count: 32))
        #expect(throws: SoulMateKitError.crypto(.authenticationFailed)) { try CoarseLocation.open(sealed, with: other) }
        var bytes = try Base64.decode(sealed, alphabet: .standard)
        bytes[13] ^= 0x80
        #expect(throws: SoulMateKitError.crypto(.authenticationFailed)) {
            try CoarseLocation.open(Base64.encode(bytes, alphabet: .standard), with: Self.key)
        }
        #expect(throws: SoulMateKitError.self) { try CoarseLocation.open("not base64!", with: Self.key) }
        #expect(throws: SoulMateKitError.crypto(.truncated(format: "soulmate-location"))) { try CoarseLocation.open("AAAA", with: Self.key) }
        #expect(throws: SoulMateKitError.self) { try CoarseLocation.open(String(repeating: "A", count: 1028), with: Self.key) }
    }

    @Test func locationsAndChatEnvelopesCannotBeSwapped() throws {
        let place = try CoarseLocation(latitude: 41, longitude: 29, at: Self.when)
        #expect(throws: KindredCryptoError.authenticationFailed) { try Self.key.open(try place.seal(with: Self.key)) }
        let envelope = try Self.key.seal(ChatPayload(type: .text, value: #"{"at":1,"lat":1,"lon":1}"#))
        #expect(throws: SoulMateKitError.crypto(.authenticationFailed)) { try CoarseLocation.open(envelope, with: Self.key) }
    }
}
