import Foundation
import KindredCrypto
import SoulMateKit
import Testing

/// Live interop with an independent Python implementation of SoulMate's envelopes and sealed
/// locations (docs/wire-formats.md, docs/soulmate-device.md), both ways, with fresh random keys.
@Suite(.enabled(if: PythonSoulMate.shouldRun, "python3 with the cryptography module not found (set CI=true to make this a failure)"))
struct SoulMateInteropTests {
    static let payloads: [ChatPayload] = [
        ChatPayload(type: .text, value: "Merhaba aşkım 💜"),
        ChatPayload(type: .text, value: "line 1\nline 2 \"quoted\" \\ / </script> \t ğüşıöç İ"),
        ChatPayload(type: .emoji, value: "😍🫶🏽🇹🇷"),
        ChatPayload(type: .gif, value: "https://media.giphy.com/media/l0HlBO7eyXzSZkJri/giphy.gif#gif-id=l0HlBO7eyXzSZkJri"),
        ChatPayload(type: .secret, value: "seni seviyorum"),
        ChatPayload(type: .heartbeat, value: ""),
        ChatPayload(type: .text, value: String(repeating: "ş", count: ChatPayload.maximumValueBytes / 2)),
    ]

    @Test func pythonSealsSwiftOpens() throws {
        let swiftSide = SoulMateIdentity()
        let python = try PythonSoulMate.runAll([["op": "identity"]])[0]
        let pythonPrivate = try #require(python["private"])
        let pythonPublic = try #require(python["public"])
        let ops = Self.payloads.map { payload in
            ["op": "seal", "private": pythonPrivate, "peer_public": swiftSide.publicKeyBase64,
             "type": payload.type.rawValue, "value": payload.value]
        }
        let sealed = try PythonSoulMate.runAll(ops)
        let key = try SoulMateChatKey(identity: swiftSide, partnerPublicKeyBase64: pythonPublic)
        for (payload, result) in zip(Self.payloads, sealed) {
            #expect(result["public"] == pythonPublic)
            #expect(result["pair_key"] == Hex.encode(key.keyBytes), "both sides derive the same pair key")
            let opened = try key.open(try #require(result["envelope"]))
            #expect(opened == payload)
            // The payload JSON is byte for byte what Swift writes (sorted keys, no whitespace).
            let pythonJSON = try Base64.decode(try #require(result["plaintext_b64"]), alphabet: .standard)
            #expect(pythonJSON == (try payload.encoded()), "\(payload.type)")
        }
    }

    @Test func swiftSealsPythonOpens() throws {
        let swiftSide = SoulMateIdentity()
        let python = try PythonSoulMate.runAll([["op": "identity"]])[0]
        let pythonPrivate = try #require(python["private"])
        let pythonPublic = try #require(python["public"])
        let key = try SoulMateChatKey(identity: swiftSide, partnerPublicKeyBase64: pythonPublic)
        var ops: [[String: String]] = []
        for payload in Self.payloads {
            ops.append(["op": "open", "private": pythonPrivate, "peer_public": swiftSide.publicKeyBase64,
                        "envelope": try key.seal(payload)])
        }
        // Negative checks: a modified envelope and another partner's key must be refused.
        var modified = try Base64.decode(try key.seal(Self.payloads[0]), alphabet: .standard)
        modified[20] ^= 0x01
        ops.append(["op": "open", "private": pythonPrivate, "peer_public": swiftSide.publicKeyBase64,
                    "envelope": Base64.encode(modified, alphabet: .standard)])
        ops.append(["op": "open", "private": pythonPrivate, "peer_public": SoulMateIdentity().publicKeyBase64,
                    "envelope": try key.seal(Self.payloads[0])])
        let results = try PythonSoulMate.run(ops)
        for (payload, result) in zip(Self.payloads, results) {
            #expect(result["error"] == nil)
            #expect(result["type"] == payload.type.rawValue)
            #expect(result["value"] == payload.value)
            #expect(result["pair_key"] == Hex.encode(key.keyBytes))
            let pythonJSON = try Base64.decode(try #require(result["plaintext_b64"]), alphabet: .standard)
            #expect(pythonJSON == (try payload.encoded()))
        }
        #expect(results[Self.payloads.count]["error"] != nil, "Python must refuse a modified envelope")
        #expect(results[Self.payloads.count + 1]["error"] != nil, "Python must refuse another partner's key")
    }

    @Test func sealedLocationsBothWays() throws {
        let key = try SoulMateChatKey(identity: SoulMateIdentity(), partnerPublicKeyBase64: SoulMateIdentity().publicKeyBase64)
        let keyHex = Hex.encode(key.keyBytes)
        let places = [
            try CoarseLocation(latitude: 41.0082, longitude: 28.9784, at: Date(timeIntervalSince1970: 1_760_000_000)),
            try CoarseLocation(latitude: -33.8688, longitude: -151.2093, at: Date(timeIntervalSince1970: 1_700_000_123)),
            try CoarseLocation(latitude: -0.004, longitude: 0.5, at: Date(timeIntervalSince1970: 0)),
        ]
        var ops = try places.map { ["op": "location-open", "pair_key": keyHex, "sealed": try $0.seal(with: key)] }
        ops += places.map {
            ["op": "location-seal", "pair_key": keyHex, "lat": "\($0.latitude)", "lon": "\($0.longitude)",
             "at": "\(Int64($0.at.timeIntervalSince1970))"]
        }
        let results = try PythonSoulMate.runAll(ops)
        for (index, place) in places.enumerated() {
            let opened = results[index]
            #expect(opened["plaintext"] == place.json)
            #expect(opened["lat"] == String(format: "%.2f", place.latitude))
            #expect(opened["lon"] == String(format: "%.2f", place.longitude))
            #expect(opened["at"] == "\(Int64(place.at.timeIntervalSince1970))")
            let sealed = results[places.count + index]
            #expect(sealed["plaintext"] == place.json, "Python writes the same JSON")
            #expect(try CoarseLocation.open(try #require(sealed["sealed"]), with: key) == place)
        }
    }
}
