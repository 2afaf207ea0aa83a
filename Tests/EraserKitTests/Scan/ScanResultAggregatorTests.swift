import Foundation
import Testing

@testable import EraserKit

@Suite struct ScanResultAggregatorTests {
    let early = ScanFixtures.date(2023, 1, 1)
    let late = ScanFixtures.date(2023, 6, 1)

    private func match(_ id: String, _ category: ScanCategory, _ confidence: Double, _ date: Date, distance: Double? = nil) -> ScanMatch {
        ScanMatch(item: .asset(AssetID(rawValue: id)), kind: .photo, category: category, confidence: confidence, date: date, faceDistance: distance)
    }

    @Test func oneItemFoundTwiceIsOneResultWithBothCategories() {
        var aggregator = ScanResultAggregator()
        aggregator.add(match("a", .dateRange, 0.5, late))
        aggregator.add(match("a", .face, 0.8, late, distance: 0.3))
        aggregator.add(match("a", .face, 0.8, late, distance: 0.3))
        let results = aggregator.results()
        #expect(results.count == 1)
        #expect(results.first?.categories == [.face, .dateRange])
        #expect(results.first?.confidence == 0.8)
        #expect(results.first?.faceDistance == 0.3)
    }

    @Test func assetsAndEventsWithTheSameRawIDStayApart() {
        var aggregator = ScanResultAggregator()
        aggregator.add(match("x", .dateRange, 0.5, late))
        aggregator.add(ScanMatch(item: .event(EventID(rawValue: "x")), kind: .calendarEvent, category: .dateRange, confidence: 0.5, date: late))
        #expect(aggregator.results().map(\.item.key) == ["asset:x", "event:x"])
    }

    @Test func resultsSortByConfidenceThenNewestThenKey() {
        var aggregator = ScanResultAggregator()
        aggregator.add(contentsOf: [
            match("d", .dateRange, 0.5, early),
            match("c", .dateRange, 0.5, late),
            match("b", .dateRange, 0.5, late),
            match("a", .face, 0.9, early),
            match("e", .contact, 0.7, early),
        ])
        #expect(aggregator.results().map(\.rawID) == ["a", "e", "b", "c", "d"])
    }

    @Test func decisionsAreAttached() {
        var aggregator = ScanResultAggregator()
        aggregator.add(match("a", .face, 0.9, early))
        aggregator.add(match("b", .face, 0.8, early))
        let results = aggregator.results(decisions: [.asset(AssetID(rawValue: "b")): .vault])
        #expect(results.map(\.decision) == [nil, .vault])
    }
}
