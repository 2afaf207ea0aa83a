import Foundation

/// The store bench's figures, as a table or a JSON document.
struct StoreBenchReport: Encodable {
    struct Percentiles: Encodable {
        let median: Double
        let p99: Double
        let max: Double

        init(_ samples: [Double]) {
            let sorted = samples.sorted()
            func at(_ q: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))] }
            median = at(0.5)
            p99 = at(0.99)
            max = sorted.last ?? .nan
        }
    }

    let messages: Int
    let mainChatMessages: Int
    let otherChats: Int
    let otherChatMessages: Int
    let batchSize: Int
    let batches: Int
    let storeInsertsPerSecond: Double
    let baselineInsertsPerSecond: Double
    /// Store time ÷ baseline time for the same inserts (1.0 = no cost; lower is better).
    let insertTimeRatio: Double
    let opens: Int
    let storeRandomOpenMs: Percentiles
    let baselineRandomOpenMs: Percentiles
    let storeNewestOpenMs: Percentiles
    let baselineNewestOpenMs: Percentiles
    let openTargetMs: Double
    let storeFileBytes: Int
    let baselineFileBytes: Int
    let peakMemoryKiB: Int
    let cores: Int

    init(options: StoreBenchOptions, total: Int, batches: Int, storeInsertSeconds: Double, baselineInsertSeconds: Double,
         storeRandom: [Double], baselineRandom: [Double], storeNewest: [Double], baselineNewest: [Double],
         storeBytes: Int, baselineBytes: Int, peakMemoryKiB: Int, cores: Int) {
        messages = total
        mainChatMessages = options.mainMessages
        otherChats = options.otherChats
        otherChatMessages = options.otherMessages
        batchSize = options.batch
        self.batches = batches
        storeInsertsPerSecond = Double(total) / storeInsertSeconds
        baselineInsertsPerSecond = Double(total) / baselineInsertSeconds
        insertTimeRatio = storeInsertSeconds / baselineInsertSeconds
        opens = storeRandom.count
        storeRandomOpenMs = Percentiles(storeRandom)
        baselineRandomOpenMs = Percentiles(baselineRandom)
        storeNewestOpenMs = Percentiles(storeNewest)
        baselineNewestOpenMs = Percentiles(baselineNewest)
        openTargetMs = 2
        storeFileBytes = storeBytes
        baselineFileBytes = baselineBytes
        self.peakMemoryKiB = peakMemoryKiB
        self.cores = cores
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    func table() -> String {
        func row(_ name: String, _ store: String, _ baseline: String, _ ratio: String) -> String {
            pad(name, 36) + pad(store, 20, left: true) + pad(baseline, 22, left: true) + "   " + ratio
        }
        func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
        func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2fx", a / b) }
        let met = storeRandomOpenMs.p99 < openTargetMs && storeNewestOpenMs.p99 < openTargetMs
        return [
            "SoulMate local store: \(messages.formatted()) messages (\(mainChatMessages.formatted()) in one chat + "
                + "\(otherChats) × \(otherChatMessages.formatted())), \(batches.formatted()) batches of \(batchSize.formatted()), \(cores) cores",
            row("", "LocalMessageStore", "plain GRDB", "ratio"),
            row("bulk insert (messages/s)", Int(storeInsertsPerSecond).formatted(), Int(baselineInsertsPerSecond).formatted(),
                String(format: "%.2fx the time", insertTimeRatio)),
            row("newest 50 at random: median", ms(storeRandomOpenMs.median), ms(baselineRandomOpenMs.median),
                ratio(storeRandomOpenMs.median, baselineRandomOpenMs.median)),
            row("newest 50 at random: p99", ms(storeRandomOpenMs.p99), ms(baselineRandomOpenMs.p99),
                ratio(storeRandomOpenMs.p99, baselineRandomOpenMs.p99)),
            row("newest 50 at the newest: median", ms(storeNewestOpenMs.median), ms(baselineNewestOpenMs.median),
                ratio(storeNewestOpenMs.median, baselineNewestOpenMs.median)),
            row("newest 50 at the newest: p99", ms(storeNewestOpenMs.p99), ms(baselineNewestOpenMs.p99),
                ratio(storeNewestOpenMs.p99, baselineNewestOpenMs.p99)),
            row("database file (MB)", String(format: "%.1f", Double(storeFileBytes) / 1_048_576),
                String(format: "%.1f", Double(baselineFileBytes) / 1_048_576), ratio(Double(storeFileBytes), Double(baselineFileBytes))),
            "page open target: p99 under \(Int(openTargetMs)) ms over \(opens.formatted()) opens each: \(met ? "met" : "MISSED")",
            "peak memory (VmHWM): \(String(format: "%.1f", Double(peakMemoryKiB) / 1024)) MiB",
        ].joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        guard text.count < width else { return text }
        let padding = String(repeating: " ", count: width - text.count)
        return left ? padding + text : text + padding
    }

    /// The size of a database with its write-ahead log, in bytes.
    static func fileSize(_ path: String) -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
        }
    }

    /// A `kB` field of /proc/self/status (`VmHWM`: peak resident memory), or 0 where there is none.
    static func procStatus(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
