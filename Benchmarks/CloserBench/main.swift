// kindred-closer-bench [--games | --kit | --client] SERVER_URL [COUPLES] [CONCURRENCY]
//
// Closer cycles against a running `kindred serve`, measuring the server's capacity. Setup (not
// timed): COUPLES couples sign up (two accounts each), publish device keys, pair through an
// invite (cheap Argon2id: setup is not what is measured), get today's question on demand and read
// the couple and both members' device keys into each device's cache (`refreshCache`, as an app
// does when it opens). Then every cycle's device work is done before the clock
// (PreparedCycles.prepare): both answers sealed (payload, commitment, commitment seal) and each
// one-time key wrapped to the partner's devices. Timed: for every couple, CloserKit's ten requests
// of one full cycle with those strings — both read today and upload an answer, both read the date
// with their keyboxes and release (the second recording the reveal), the first reads again and
// records its reveal — over CONCURRENCY keep-alive connections, each taking the next couple's
// cycle when it finishes one (WireDriver: the requests are HTTP/1.1 bytes made before the clock
// from the same values CloserKit sends; `--client` sends them through the generated client and
// AsyncHTTPClient instead, CONCURRENCY couples at a time). After the clock, each device opens and
// checks the partner's answer from the server's copy. Prints `cycles/s N` and the HTTP requests
// per cycle for scripts/bench-closer to compare with the bare Hummingbird server measured in the
// same run, then the device figure (DeviceCost): CloserKit's cryptography per cycle against raw
// swift-crypto doing the same primitives, measured in this process after the server phase.
//
// With `--kit` the timed phase runs the cycles through CloserKit itself (`answer`, `reveal`),
// both phones' cryptography included — the earlier figure, which said as much about the client
// as about the server on a 2-core machine.
//
// With `--games` (scripts/bench-closer --games) the timed work is one This or That round per
// couple instead (GameRounds): setup also starts each couple's session and seals both answers;
// timed are the two commitments, two openings and both partners' reads of the finished session;
// every round's score is checked after the clock. Prints `rounds/s N`.
import CloserKit
import Foundation
import KindredClient
import KindredCrypto

var arguments = CommandLine.arguments
let games = arguments.count > 1 && arguments[1] == "--games"
let kit = arguments.count > 1 && arguments[1] == "--kit"
let viaClient = arguments.count > 1 && arguments[1] == "--client"
if games || kit || viaClient { arguments.remove(at: 1) }
guard arguments.count >= 2, let server = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: kindred-closer-bench [--games | --kit | --client] SERVER_URL [COUPLES] [CONCURRENCY]\n".utf8))
    exit(2)
}
let couples = arguments.count > 2 ? Int(arguments[2]) ?? 1_000 : 1_000
let concurrency = arguments.count > 3 ? Int(arguments[3]) ?? 64 : 64
let setupParameters = try CloserKDFParameters(memoryKiB: 64, iterations: 1, parallelism: 1)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("closer-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

/// A phone in memory: its tokens, secure store and pending-key database.
func makeDevice(_ name: String) throws -> CloserDevice {
    let secure = InMemorySecureStore()
    let session = KindredSession(serverURL: server, app: .closer, store: MemoryTokenStore())
    let pending = try PendingKeyStore(url: folder.appendingPathComponent("\(name).sqlite"), secureStore: secure)
    return CloserDevice(session: session, secureStore: secure, pending: pending, platform: .linux, kdfParameters: setupParameters)
}

/// Runs `body` for 0..<count, at most `width` at a time.
func forEach(_ count: Int, width: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        var next = 0
        while next < min(width, count) { let i = next; group.addTask { try await body(i) }; next += 1 }
        while try await group.next() != nil {
            if next < count { let i = next; group.addTask { try await body(i) }; next += 1 }
        }
    }
}

/// One line on stderr and exit 1 (a failed run has no figure).
func fail(_ error: any Error) -> Never {
    FileHandle.standardError.write(Data("kindred-closer-bench: \(error)\n".utf8))
    exit(1)
}

let pairs = try (0..<couples).map { (try makeDevice("a\($0)"), try makeDevice("b\($0)")) }
let setupStart = ContinuousClock.now
do { try await forEach(couples, width: concurrency) { index in
    let (alice, bob) = pairs[index]
    let tag = "\(getpid())-\(index)"
    _ = try await alice.session.signUp(email: "a\(tag)@bench.example", password: "bench password a", displayName: "a")
    _ = try await bob.session.signUp(email: "b\(tag)@bench.example", password: "bench password b", displayName: "b")
    let invite = try await alice.createInvite()
    try await bob.acceptInvite(invite.share)
    _ = try await alice.today()
    try await alice.refreshCache()
    try await bob.refreshCache()
} } catch { fail(error) }
if games {
    let pack = try await pairs[0].0.gamePack(GameRounds.packID)
    let itemIDs = (pack.items ?? []).map(\.id)
    let rounds = RoundBox(count: couples)
    do { try await forEach(couples, width: concurrency) { index in
        rounds.set(index, try await GameRounds.prepare(pairs[index].0, pairs[index].1, itemCount: itemIDs.count))
    } } catch { fail(error) }
    let requestsBefore = pairs.reduce(0) { $0 + $1.0.cache.requestCount + $1.1.cache.requestCount }
    print("setup \(couples) couples with a sealed round each in \(ContinuousClock.now - setupStart)")
    let start = ContinuousClock.now
    do { try await forEach(couples, width: concurrency) { index in
        try await GameRounds.play(pairs[index].0, pairs[index].1, rounds.get(index))
    } } catch { fail(error) }
    let elapsed = ContinuousClock.now - start
    let requests = pairs.reduce(0) { $0 + $1.0.cache.requestCount + $1.1.cache.requestCount } - requestsBefore
    do { try await forEach(couples, width: concurrency) { index in
        try await GameRounds.check(pairs[index].0, pairs[index].1, rounds.get(index), itemIDs: itemIDs)
    } } catch { fail(error) }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print("rounds \(couples) in \(String(format: "%.2f", seconds)) s, concurrency \(concurrency), every score checked")
    print("rounds/s \(String(format: "%.1f", Double(couples) / seconds))")
    print("requests/round \(String(format: "%.1f", Double(requests) / Double(couples)))")
    exit(0)
}
if !kit {
    let cycles = CycleBox(count: couples)
    do { try await forEach(couples, width: concurrency) { index in
        cycles.set(index, try await PreparedCycles.prepare(pairs[index].0, pairs[index].1, index: index))
    } } catch { fail(error) }
    // The requests as bytes (WireDriver), unless the generated client is to send them.
    var wire: [[WireRequest]] = []
    let host = server.host ?? "127.0.0.1"
    let port = server.port ?? 80
    if !viaClient {
        do { for index in 0..<couples { wire.append(try await WireDriver.requests(cycles.get(index), host: "\(host):\(port)")) } } catch { fail(error) }
    }
    print("setup \(couples) couples with a sealed cycle each (answers, commitment seals, keyboxes) in \(ContinuousClock.now - setupStart)")
    let start = ContinuousClock.now
    var sent = 0
    if viaClient {
        do { try await forEach(couples, width: concurrency) { index in
            try await PreparedCycles.play(cycles.get(index))
        } } catch { fail(error) }
        sent = PreparedCycles.requests.load(ordering: .relaxed)
    } else {
        do { sent = try await WireDriver.run(wire, host: host, port: port, connections: concurrency) } catch { fail(error) }
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let driver = viaClient ? "the generated client (AsyncHTTPClient)" : "prepared HTTP/1.1 requests on \(concurrency) keep-alive connections"
    print("cycles \(couples) in \(String(format: "%.2f", seconds)) s, concurrency \(concurrency), device work prepared before the clock, sent by \(driver)")
    print("cycles/s \(String(format: "%.1f", Double(couples) / seconds))")
    print("requests/cycle \(String(format: "%.1f", Double(sent) / Double(couples)))")
    do { try await forEach(couples, width: concurrency) { index in
        try await PreparedCycles.check(cycles.get(index), alice: pairs[index].0, bob: pairs[index].1)
    } } catch { fail(error) }
    print("checked: every partner's answer opened from the server's copy")
    do {
        let device = try DeviceCost.measure()
        print("device CPU per cycle \(String(format: "%.3f", device.closerKit)) ms (CloserKit: 2 seal, 2 keybox wrap, 2 unwrap, 4 open)")
        print("raw swift-crypto per cycle \(String(format: "%.3f", device.raw)) ms (AES-GCM, SHA-256, P-256, HKDF on the same sizes)")
        print("device ratio \(String(format: "%.2f", device.closerKit / device.raw))")
    } catch { fail(error) }
    exit(0)
}
let requestsBefore = pairs.reduce(0) { $0 + $1.0.cache.requestCount + $1.1.cache.requestCount }
print("setup \(couples) couples in \(ContinuousClock.now - setupStart)")

let start = ContinuousClock.now
do { try await forEach(couples, width: concurrency) { index in
    let (alice, bob) = pairs[index]
    try await alice.answer("alice's answer to the question of the day, couple \(index)")
    try await bob.answer("bob's answer to the question of the day, couple \(index)")
    _ = try await alice.reveal()
    let bobSees = try await bob.reveal()
    let aliceSees = try await alice.reveal()
    guard case .revealed = bobSees.state, case .revealed = aliceSees.state else {
        throw CloserKitError.invalidServerData("couple \(index) did not reveal: \(bobSees.state), \(aliceSees.state)")
    }
} } catch { fail(error) }
let elapsed = ContinuousClock.now - start
let requests = pairs.reduce(0) { $0 + $1.0.cache.requestCount + $1.1.cache.requestCount } - requestsBefore
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("cycles \(couples) in \(String(format: "%.2f", seconds)) s, concurrency \(concurrency)")
print("cycles/s \(String(format: "%.1f", Double(couples) / seconds))")
print("requests/cycle \(String(format: "%.1f", Double(requests) / Double(couples)))")
