import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

/// Thousands of deterministic mutations (bit flips, interesting values, truncation, insertion,
/// deletion, duplication) of valid JPEG, PNG, MP4 and HEIC files: every read ends with a value
/// or a typed `LibraryError`, never a crash or a hang.
@Suite struct MetadataMutationTests {
    static let gps = TIFFBuilder.gps(
        latitudeRef: "S", latitude: (33, 51, 3590), longitudeRef: "W", longitude: (151, 12, 4000), altitude: (125, 10), belowSeaLevel: true)

    /// The valid files mutated.
    static let seeds: [(String, [UInt8])] = [
        ("jpeg-mm", MediaFixtures.jpeg(tiff: TIFFBuilder.photo(offset: "+09:00", subsec: "5", gps: gps).bytes())),
        ("jpeg-ii", MediaFixtures.jpeg(tiff: TIFFBuilder.photo(bigEndian: false, gps: gps).bytes(), exifFirst: false)),
        ("png", MediaFixtures.png(exif: TIFFBuilder.photo(offset: "-05:00", gps: gps).bytes())),
        ("mp4", MediaFixtures.movie(creation: 3_800_000_000)),
        ("mov-v1", MediaFixtures.movie(brand: "qt  ", mvhdVersion: 1, creation: 3_800_000_000, tkhdVersion: 1, moovLast: false, largeMdat: true)),
        ("heic", MediaFixtures.heic()),
    ]

    static let interesting8: [UInt8] = [0x00, 0x01, 0x02, 0x08, 0x7F, 0x80, 0xFE, 0xFF]
    static let interesting32: [UInt32] = [0, 1, 2, 4, 7, 8, 9, 12, 16, 0x7F, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFF8, 0xFFFF_FFFF]

    /// One mutation of `bytes`.
    static func mutate(_ bytes: [UInt8], using random: inout MutationRandom) -> [UInt8] {
        var out = bytes
        guard !out.isEmpty else { return [UInt8.random(in: 0...255, using: &random)] }
        switch Int.random(in: 0..<8, using: &random) {
        case 0:  // Flip one to four bits.
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                out[Int.random(in: 0..<out.count, using: &random)] ^= 1 << UInt8.random(in: 0..<8, using: &random)
            }
        case 1:  // An interesting byte.
            out[Int.random(in: 0..<out.count, using: &random)] = interesting8.randomElement(using: &random)!
        case 2:  // An interesting 16- or 32-bit number, either byte order (lengths, counts, offsets).
            let width = Bool.random(using: &random) ? 2 : 4
            guard out.count >= width else { break }
            let at = Int.random(in: 0...(out.count - width), using: &random)
            let value = interesting32.randomElement(using: &random)!
            var field = (0..<width).map { UInt8((value >> (8 * UInt32(width - 1 - $0))) & 0xFF) }
            if Bool.random(using: &random) { field.reverse() }
            out.replaceSubrange(at..<(at + width), with: field)
        case 3:  // Truncate.
            out.removeLast(Int.random(in: 1...out.count, using: &random))
        case 4:  // Insert random bytes.
            let at = Int.random(in: 0...out.count, using: &random)
            out.insert(contentsOf: (0..<Int.random(in: 1...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
        case 5:  // Delete a range.
            let at = Int.random(in: 0..<out.count, using: &random)
            out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...16, using: &random)))
        case 6:  // Duplicate a range somewhere else.
            let at = Int.random(in: 0..<out.count, using: &random)
            let piece = out[at..<min(out.count, at + Int.random(in: 1...64, using: &random))]
            out.insert(contentsOf: piece, at: Int.random(in: 0...out.count, using: &random))
        default:  // Overwrite a random byte.
            out[Int.random(in: 0..<out.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
        return out
    }

    /// What one read gave: a value (checked to be sane) or a typed error's code.
    static func outcome(_ bytes: [UInt8], reader: MediaMetadataReader) -> String {
        do {
            let metadata = try reader.read(bytes)
            if let width = metadata.pixelWidth { #expect(width > 0) }
            if let height = metadata.pixelHeight { #expect(height > 0) }
            if let location = metadata.location {
                #expect(abs(location.latitude) <= 90 && abs(location.longitude) <= 180)
                #expect(location.altitude?.isFinite ?? true)
            }
            if let date = metadata.embeddedCaptureDate { #expect(date.date.timeIntervalSince1970.isFinite) }
            return "value"
        } catch {
            switch error {
            case .library(.unreadableMetadata), .library(.unsupportedFormat): return error.code
            default:
                Issue.record("untyped outcome: \(error)")
                return "other"
            }
        }
    }

    /// Runs `perSeed` cases for each seed file (one to three stacked mutations each).
    static func run(perSeed: Int, seed: UInt64) -> [String: [String: Int]] {
        let reader = MediaMetadataReader(timeZone: TimeZone(identifier: "Europe/Berlin")!)
        var random = MutationRandom(seed: seed)
        var tally: [String: [String: Int]] = [:]
        for (name, file) in seeds {
            for _ in 0..<perSeed {
                var bytes = file
                for _ in 0..<Int.random(in: 1...3, using: &random) { bytes = mutate(bytes, using: &random) }
                tally[name, default: [:]][outcome(bytes, reader: reader), default: 0] += 1
            }
        }
        return tally
    }

    @Test(.timeLimit(.minutes(2)))
    func everyMutationGivesAValueOrATypedError() {
        let tally = Self.run(perSeed: 2000, seed: 0x5EED_E7A5)
        for (name, _) in Self.seeds {
            let counts = tally[name] ?? [:]
            #expect(counts.values.reduce(0, +) == 2000)
            #expect(counts["other"] == nil, "\(name): \(counts)")
            // Both outcomes occur: the mutations reach past the first checks.
            #expect((counts["value"] ?? 0) > 0, "\(name): \(counts)")
            #expect((counts["library.unreadable_metadata"] ?? 0) > 0, "\(name): \(counts)")
        }
        // The same seed makes the same cases, with the same outcomes.
        #expect(Self.run(perSeed: 200, seed: 7) == Self.run(perSeed: 200, seed: 7))
    }

    @Test(.timeLimit(.minutes(1)))
    func mutatedFilesReadThroughTheFileReader() throws {
        let directory = try TemporaryDirectory()
        let reader = MediaMetadataReader(timeZone: TimeZone(identifier: "UTC")!)
        var random = MutationRandom(seed: 42)
        for (name, file) in Self.seeds {
            for index in 0..<100 {
                let bytes = Self.mutate(file, using: &random)
                let url = try directory.write("\(name)-\(index)", bytes)
                let fromMemory = Self.outcome(bytes, reader: reader)
                do {
                    let metadata = try reader.read(contentsOf: url)
                    #expect(fromMemory == "value")
                    #expect(metadata == (try? reader.read(bytes)))
                } catch {
                    #expect(error.code == fromMemory)
                }
            }
        }
    }
}
