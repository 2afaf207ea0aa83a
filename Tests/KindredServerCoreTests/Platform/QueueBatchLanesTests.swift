@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Testing


/// How a batch handler splits a claim into lanes: few lanes, one key in one lane in claim order,
/// each lane ordered by key (so concurrent lanes take per-key locks in one order).
@Suite struct QueueBatchLanesTests {
    static func item(_ id: String, key: String) -> QueueItem {
        QueueItem(
            id: id, queue: "q", payload: key, dedupeKey: nil, attempt: 1, createdAt: Date(timeIntervalSince1970: 0),
            leaseUntil: Date(timeIntervalSince1970: 60), claimToken: "t"
        )
    }

    static let handler = QueueBatchHandler(laneSize: 4, partition: { $0.payload }) { _ in [:] }

    @Test("a claim that fits one lane is one lane, ordered by key, claim order within a key")
    func oneLane() {
        let items = [Self.item("1", key: "b"), Self.item("2", key: "a"), Self.item("3", key: "b"), Self.item("4", key: "a")]
        #expect(Self.handler.lanes(of: items).map { $0.map(\.id) } == [["2", "4", "1", "3"]])
        #expect(Self.handler.lanes(of: []).isEmpty)
    }

    @Test("a larger claim is split into ceil(count / laneSize) lanes at most, each key in one lane")
    func severalLanes() {
        let keys = ["u1", "u2", "u3", "u4", "u5", "u6"]
        let items = (0..<12).map { Self.item("\($0)", key: keys[$0 % keys.count]) }
        let lanes = Self.handler.lanes(of: items)
        #expect(lanes.count <= 3)
        #expect(lanes.flatMap { $0 }.map(\.id).sorted() == items.map(\.id).sorted())
        for key in keys {
            #expect(lanes.filter { lane in lane.contains { $0.payload == key } }.count == 1)
        }
        for lane in lanes {
            #expect(lane.map(\.payload) == lane.map(\.payload).sorted())
            for key in keys {
                let ids = lane.filter { $0.payload == key }.map { Int($0.id) ?? -1 }
                #expect(ids == ids.sorted())
            }
        }
    }
}
