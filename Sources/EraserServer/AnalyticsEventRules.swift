import EraserAPI
import Foundation
import KindredServerCore

/// An analytics event that passed every rule: what is stored, and nothing else.
struct CheckedAnalyticsEvent: Sendable, Equatable {
    /// The event's name (`scan_started`, …).
    var name: String
    /// Its properties as canonical JSON (sorted keys, only the ones present).
    var properties: String
    /// The hour it happened: seconds since 1970, a multiple of 3600.
    var hour: Int64
}

/// The rules an analytics event must pass (docs/exeraser.md, "Analytics"). The contract's types
/// already refuse unknown events, unknown properties and values outside their enumerations (400
/// `bad_request` from the decoder); these rules add what the types cannot say: which properties
/// each event may carry, the numbers' bounds, and a time near now.
enum AnalyticsEventRules {
    typealias Event = Components.Schemas.ExEraserAnalyticsEvent
    typealias Properties = Components.Schemas.ExEraserAnalyticsProperties

    /// The properties each event may carry.
    static let allowed: [Components.Schemas.ExEraserAnalyticsEventName: Set<String>] = [
        .scanStarted: ["phases", "referencePhotos", "librarySize"],
        .scanCompleted: ["phases", "outcome", "durationSeconds", "librarySize", "matches"],
        .vaultAction: ["items", "mediaType"],
        .deleteAction: ["items", "mediaType"],
        .coolingOffReversal: ["items", "mediaType", "daysLeft"],
    ]

    /// The most events in one batch.
    static let maxBatch = 100
    /// How far back an event may have happened.
    static let maxAge: TimeInterval = 7 * 86_400
    /// How far ahead of the server's clock a device's clock may be.
    static let maxSkew: TimeInterval = 300

    /// Checks every event of a batch; one bad event refuses the batch.
    /// - Throws: 400 `invalid_analytics_event` naming `events[i].field`.
    static func check(_ events: [Event], now: Date) throws -> [CheckedAnalyticsEvent] {
        guard (1...maxBatch).contains(events.count) else {
            throw KindredError.invalidAnalyticsEvent("events must hold 1 to \(maxBatch) events, not \(events.count)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try events.enumerated().map { index, event in
            let at = "events[\(index)]"
            let age = now.timeIntervalSince(event.occurredAt)
            guard age <= maxAge, age >= -maxSkew else {
                throw KindredError.invalidAnalyticsEvent("\(at).occurredAt must be within the last 7 days and at most 5 minutes ahead")
            }
            let properties = event.properties ?? Properties()
            try check(properties, of: event.event, at: "\(at).properties")
            let json = try encoder.encode(properties)
            let seconds = Int64(event.occurredAt.timeIntervalSince1970.rounded(.down))
            return CheckedAnalyticsEvent(
                name: event.event.rawValue, properties: String(decoding: json, as: UTF8.self), hour: seconds - seconds % 3600
            )
        }
    }

    /// The names of the properties that are present.
    static func present(_ properties: Properties) -> [String] {
        var names: [String] = []
        if properties.phases != nil { names.append("phases") }
        if properties.referencePhotos != nil { names.append("referencePhotos") }
        if properties.librarySize != nil { names.append("librarySize") }
        if properties.outcome != nil { names.append("outcome") }
        if properties.durationSeconds != nil { names.append("durationSeconds") }
        if properties.matches != nil { names.append("matches") }
        if properties.items != nil { names.append("items") }
        if properties.mediaType != nil { names.append("mediaType") }
        if properties.daysLeft != nil { names.append("daysLeft") }
        return names
    }

    /// One event's properties: allowed for the event, numbers within bounds, phases unique.
    static func check(_ properties: Properties, of event: Components.Schemas.ExEraserAnalyticsEventName, at path: String) throws {
        let allowed = allowed[event] ?? []
        if let refused = present(properties).first(where: { !allowed.contains($0) }) {
            throw KindredError.invalidAnalyticsEvent("\(path).\(refused) is not a property of \(event.rawValue)")
        }
        func within(_ value: Int?, _ name: String, _ range: ClosedRange<Int>) throws {
            guard let value, !range.contains(value) else { return }
            throw KindredError.invalidAnalyticsEvent("\(path).\(name) must be \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
        try within(properties.referencePhotos, "referencePhotos", 0...5)
        try within(properties.durationSeconds, "durationSeconds", 0...86_400)
        try within(properties.items, "items", 1...10_000)
        try within(properties.daysLeft, "daysLeft", 0...30)
        if let phases = properties.phases, Set(phases).count != phases.count {
            throw KindredError.invalidAnalyticsEvent("\(path).phases must not repeat a phase")
        }
    }
}
