import Foundation
import KindredTestSupport
import Synchronization

@testable import EraserKit

/// A small library (130 assets: three batches of 50, 50 and 30) and calendar with findings
/// planted at known places, shared by the engine, resume and review tests.
///
/// Photos default to 2022-06-15 (outside the range); the date range is March 2023 in UTC, so as
/// instants `[2023-03-01T00:00Z, 2023-04-01T00:00Z)`. Planted:
/// - p000005: a stranger and the ex at 0.2 → face
/// - p000010: the ex at 0.3 → face
/// - p000060: the ex at 0.55, 15 March → face + date range
/// - p000070: the ex at 0.65 → nothing at 0.6 (a match at 0.7)
/// - p000080: a stranger, exactly 1 March 00:00 → date range (start included)
/// - p000090: a video, 31 March 23:59:59.999 → date range (videos are not embedded)
/// - p000100: 1 April 00:00 → nothing (end excluded)
/// - p000125: unreadable → skipped
/// Events: e-both (Deniz attends, 20 March) → contact + date range; e-contact (Deniz attends,
/// 2021) → contact; e-title ("Coffee with deniz", 2022) → contact; e-inrange (10 March) → date
/// range; e-edge-before / e-edge-after touch the range's edges only → nothing; e-other → nothing.
struct ScanScenario {
    static let assetCount = 130
    static let range = ScanDateRange(from: ScanDay(year: 2023, month: 3, day: 1), through: ScanDay(year: 2023, month: 3, day: 31))
    static let contact = ScanContact(name: "Deniz", phones: ["+90 555 000 00 00"], emails: ["deniz@example.com"])

    /// The expected gallery, in order.
    static let expectedOrder = [
        "home/e-both", "home/e-contact", "p000005", "p000010", "home/e-title", "p000060",
        "p000090", "home/e-inrange", "p000080",
    ]

    static func asset(_ n: Int) -> PhotoAsset {
        switch n {
        case 60: ScanFixtures.photo(n, ScanFixtures.date(2023, 3, 15))
        case 80: ScanFixtures.photo(n, ScanFixtures.date(2023, 3, 1, 0))
        case 90: ScanFixtures.photo(n, ScanFixtures.date(2023, 3, 31, 23, 59, 59.999), mediaType: .video)
        case 100: ScanFixtures.photo(n, ScanFixtures.date(2023, 4, 1, 0))
        default: ScanFixtures.photo(n, ScanFixtures.date(2022, 6, 15).addingTimeInterval(Double(n) * 60))
        }
    }

    static func faces(_ name: String) throws(EraserKitError) -> [DetectedFace] {
        switch name {
        case "p000005": [ScanFixtures.stranger, ScanFixtures.face(at: 0.2)]
        case "p000010": [ScanFixtures.face(at: 0.3)]
        case "p000060": [ScanFixtures.face(at: 0.55)]
        case "p000070": [ScanFixtures.face(at: 0.65)]
        case "p000080": [ScanFixtures.stranger]
        case "p000125": throw .faces(.unreadableImage(path: name, reason: "truncated JPEG"))
        default: []
        }
    }

    static var events: [CalendarEvent] {
        let deniz = EventPerson(name: "Deniz Y.", email: "DENIZ@example.com")
        return [
            ScanFixtures.event("both", start: ScanFixtures.date(2023, 3, 20, 19), attendees: [deniz]),
            ScanFixtures.event("contact", start: ScanFixtures.date(2021, 5, 1, 19), attendees: [deniz]),
            ScanFixtures.event("title", title: "Coffee with deniz", start: ScanFixtures.date(2022, 2, 2, 9)),
            ScanFixtures.event("inrange", start: ScanFixtures.date(2023, 3, 10, 19)),
            ScanFixtures.event("edge-before", start: ScanFixtures.date(2023, 2, 28, 23)),
            ScanFixtures.event("edge-after", start: ScanFixtures.date(2023, 4, 1, 0)),
            ScanFixtures.event("other", start: ScanFixtures.date(2022, 7, 7, 7)),
        ]
    }

    /// Every configured phase.
    static var configuration: ScanConfiguration {
        ScanConfiguration(
            references: .descriptors([ScanFixtures.reference]), dateRanges: [range], contact: contact,
            includeCalendar: true, timeZone: ScanFixtures.utc)
    }

    let directory: TemporaryDirectory
    let store: ScanStore
    let library: ScanFakeLibrary
    let calendar: ScanFakeCalendar
    let embedder: ScanFakeEmbedder
    let engine: ScanEngine

    /// The scenario, with an optional hook the embedder runs before each answer (it gets the
    /// engine, through a box filled after the engine exists).
    init(clock: (@Sendable () -> Double)? = nil, hook: (@Sendable (String, ScanEngine) async -> Void)? = nil) throws {
        directory = try TemporaryDirectory()
        store = try ScanFixtures.store(in: directory)
        library = ScanFakeLibrary(count: Self.assetCount, make: Self.asset, index: ScanFixtures.index(of:))
        calendar = ScanFakeCalendar(events: Self.events)
        let box = EngineBox()
        var embedderHook: (@Sendable (String) async -> Void)?
        if let hook {
            embedderHook = { name in
                if let engine = box.engine { await hook(name, engine) }
            }
        }
        embedder = ScanFakeEmbedder(hook: embedderHook, faces: { name throws(EraserKitError) in try Self.faces(name) })
        engine = ScanEngine(
            library: library, calendar: calendar, embedder: embedder,
            contactMatcher: { ScanFakeContactMatcher(contact: $0) }, store: store,
            clock: clock ?? { ProcessInfo.processInfo.systemUptime })
        box.engine = engine
    }

    /// The names of the photos the face phase embeds in `indices` (videos are not embedded).
    static func embeddedNames(_ indices: Range<Int>) -> [String] {
        indices.filter { asset($0).mediaType == .photo }.map { ScanFixtures.assetID($0).rawValue }
    }
}

/// Lets the embedder's hook reach the engine created after it.
final class EngineBox: Sendable {
    private let value = Mutex<ScanEngine?>(nil)
    var engine: ScanEngine? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
