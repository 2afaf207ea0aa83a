import Foundation
import Synchronization

/// Send and receive instants of one benchmark run, in nanoseconds of the monotonic clock.
final class LatencyRecorder: Sendable {
    private let sent: Mutex<[Int: UInt64]> = Mutex([:])
    private let received: Mutex<[(Int, UInt64)]> = Mutex([])

    /// Now, in monotonic nanoseconds.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Message `index` was committed (Kindred) or handed to the writers (baseline).
    func sent(_ index: Int) {
        let now = Self.now
        sent.withLock { $0[index] = now }
    }

    /// One subscriber received message `index`.
    func received(_ index: Int) {
        let now = Self.now
        received.withLock { $0.append((index, now)) }
    }

    /// Deliveries so far.
    var deliveries: Int { received.withLock { $0.count } }

    /// The `count` events whose last delivery came latest after their send: (index, ms).
    func slowestEvents(_ count: Int) -> [(Int, Double)] {
        let sent = sent.withLock { $0 }
        var worst: [Int: Double] = [:]
        for (index, at) in received.withLock({ $0 }) {
            guard let start = sent[index] else { continue }
            worst[index] = max(worst[index] ?? 0, at >= start ? Double(at - start) / 1e6 : 0)
        }
        return worst.sorted { $0.value > $1.value }.prefix(count).map { ($0.key, $0.value) }
    }

    /// Deliveries per second from the first send to the last receive, and latency percentiles in ms.
    func summary() -> (perSecond: Double, p50: Double, p99: Double, max: Double) {
        let sent = sent.withLock { $0 }
        let received = received.withLock { $0 }
        guard let first = sent.values.min(), let last = received.map(\.1).max(), last > first else { return (0, 0, 0, 0) }
        var latencies = received.compactMap { index, at -> Double? in
            guard let start = sent[index] else { return nil }
            return at >= start ? Double(at - start) / 1e6 : 0
        }
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        return (Double(received.count) / (Double(last - first) / 1e9), percentile(0.5), percentile(0.99), latencies.last ?? 0)
    }
}
