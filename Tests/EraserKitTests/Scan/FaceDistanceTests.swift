import Testing

@testable import EraserKit

@Suite struct FaceDistanceTests {
    @Test func theDistanceIsEuclidean() {
        #expect(FaceDistance.euclidean([0, 0], [3, 4]) == 5)
        #expect(FaceDistance.euclidean([1, 2], [1]) == nil)
        #expect(FaceDistance.euclidean([], []) == nil)
        #expect(FaceDistance.euclidean([.infinity], [0]) == nil)
    }

    @Test func theNearestPairCounts() {
        let nearest = FaceDistance.nearest([[0, 3], [0, 1]], references: [[0, 0], [0, 10]])
        #expect(nearest == 1)
        #expect(FaceDistance.nearest([[0, 3]], references: [[0]]) == nil)
    }

    @Test func theThresholdIsInclusiveAndHalfConfident() {
        #expect(FaceDistance.isMatch(distance: 0.6, threshold: 0.6))
        #expect(!FaceDistance.isMatch(distance: 0.6000001, threshold: 0.6))
        #expect(FaceDistance.confidence(distance: 0.6, threshold: 0.6) == 0.5)
        #expect(FaceDistance.confidence(distance: 0, threshold: 0.6) == 1)
        #expect(FaceDistance.confidence(distance: 0.3, threshold: 0.6) == 0.8)
        #expect(FaceDistance.confidence(distance: 1.2, threshold: 0.6) == 0.2)
    }

    @Test func confidenceFallsAsTheDistanceGrows() {
        let distances = stride(from: 0.0, through: 2.0, by: 0.05).map { FaceDistance.confidence(distance: $0, threshold: 0.6) }
        #expect(zip(distances, distances.dropFirst()).allSatisfy { $0 > $1 })
    }
}
