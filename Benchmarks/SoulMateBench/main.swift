import Foundation

// kindred-soulmate-bench: SoulMate's benchmarks (release builds).
//   store  — the local message store: bulk insert and page opens against plain GRDB (scripts/bench-soulmate-store)
//   relay  — send, deliver and acknowledge through `kindred serve` (RelayBench.swift)
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "store":
    do {
        try runStoreBench(arguments: Array(arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("store bench failed: \(error)\n".utf8))
        exit(1)
    }
case "relay":
    try await runRelayBench(arguments: Array(arguments.dropFirst()))
default:
    FileHandle.standardError.write(Data("""
        usage: kindred-soulmate-bench store [--messages N] [--other-chats K] [--other-messages M] [--batch B] [--opens N] [--dir PATH] [--json]
               kindred-soulmate-bench relay …

        """.utf8))
    exit(2)
}
