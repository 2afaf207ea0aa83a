/// A small, honest timing harness: calibrates a batch to about 20 ms, runs `rounds` batches,
/// and reports the median nanoseconds per operation.
enum Bench {
    /// Batches measured per figure.
    static let rounds = 21

    /// Measures `body` (skipped when the first command-line argument is not part of its name), prints its median time per call, and returns it in nanoseconds.
    @discardableResult
    static func measure(_ name: String, _ body: () throws -> Void) -> Double {
        if let filter = CommandLine.arguments.dropFirst().first, !name.contains(filter) { return .nan }
        do {
            for _ in 0..<50 { try body() }  // warm-up
            var iterations = 1
            while true {
                let elapsed = try time(iterations, body)
                if elapsed >= 0.02 { break }
                iterations *= 2
            }
            var samples: [Double] = []
            for _ in 0..<rounds {
                samples.append(try time(iterations, body) / Double(iterations) * 1e9)
            }
            samples.sort()
            let median = samples[samples.count / 2]
            print("\(pad(name, 52)) \(pad(String(format1(median)), 10)) ns/op  (\(iterations) ops per round)")
            return median
        } catch {
            print("\(name): failed with \(error)")
            return .nan
        }
    }

    /// Prints `value / baseline` and whether it meets `target`.
    static func ratio(_ name: String, _ value: Double, against baselineName: String, _ baseline: Double, target: Double?) {
        guard value.isFinite, baseline.isFinite else { return }  // one of them was filtered out or failed
        let r = value / baseline
        var line = "\(pad(name, 26)) / \(pad(baselineName, 34)) = \(format2(r))x"
        if let target { line += r <= target ? "  (target <= \(format2(target))x: met)" : "  (target <= \(format2(target))x: MISSED)" }
        print(line)
    }

    private static func time(_ iterations: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { try body() }
        let d = clock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    private static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
    private static func format1(_ x: Double) -> String { String(Int((x * 10).rounded()) / 10) + "." + String(Int((x * 10).rounded()) % 10) }
    private static func format2(_ x: Double) -> String {
        let hundredths = Int((x * 100).rounded())
        let frac = hundredths % 100
        return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac)"
    }
}
