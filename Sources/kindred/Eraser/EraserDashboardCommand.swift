import ArgumentParser
import EraserKit
import Foundation

/// `kindred eraser dashboard`: what was found, vaulted, waits in the bin and is gone.
struct EraserDashboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard", abstract: "The cleanup dashboard: found, decided, vaulted, waiting and deleted items.")
    @OptionGroup var options: EraserDeviceOptions

    struct Scan: Encodable {
        var found: Int
        var byCategory: [String: Int]
        var byKind: [String: Int]
        var decided: [String: Int]
        var undecided: Int
        var waitingToApply: Int
    }
    struct Output: Encodable {
        var scan: Scan?
        var vaulted: [String: Int]
        var coolingOff: Int
        var nextDeletion: Date?
        var destroyed: Int
        var rescued: Int
        var scans: Int
    }

    func run() async throws {
        try await options.run { (device) throws(EraserKitError) -> Output in
            let board = try device.dashboard()
            return Output(
                scan: board.scan.map {
                    Scan(found: $0.found, byCategory: Self.keyed($0.byCategory), byKind: Self.keyed($0.byKind),
                         decided: Self.keyed($0.decided), undecided: $0.undecided, waitingToApply: $0.waitingToApply)
                },
                vaulted: Self.keyed(board.vaulted), coolingOff: board.coolingOff, nextDeletion: board.nextDeletion,
                destroyed: board.destroyed, rescued: board.rescued, scans: board.scans)
        } text: { output in
            var lines: [String] = []
            if let scan = output.scan {
                lines.append("found \(scan.found): " + Self.list(scan.byCategory))
                lines.append("decided: " + Self.list(scan.decided) + "; undecided \(scan.undecided); to apply \(scan.waitingToApply)")
            } else {
                lines.append("no scan yet")
            }
            lines.append("vault: " + Self.list(output.vaulted) + "; cooling off \(output.coolingOff); deleted for good \(output.destroyed)")
            return lines.joined(separator: "\n")
        }
    }

    static func keyed<K: RawRepresentable<String>>(_ counts: [K: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
    }

    static func list(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
