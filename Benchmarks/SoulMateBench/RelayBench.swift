import Foundation
import KindredClient
import KindredCrypto
import SoulMateAPI
import SoulMateKit

// kindred-soulmate-bench relay SERVER_URL [PAIRS] [MESSAGES] [CONCURRENCY] [BATCH]
//
// SoulMate's relay against a running `kindred serve`. Setup (not timed): PAIRS pairs sign up, pair
// by code, publish identity keys and derive their pair keys; every envelope is sealed before the
// clock starts, so the figure is the server's. Timed: in each pair the sender posts MESSAGES
// envelopes one by one, and after every BATCH the recipient lists what waits and acknowledges it
// in one call (the server deletes the acknowledged envelopes in that transaction); CONCURRENCY
// pairs at a time. A message counts once it has been sent, delivered, acknowledged and deleted.
// Prints `messages/s N` for scripts/bench-soulmate to compare with the bare Hummingbird server.

/// One line on stderr and exit 1 (a failed run has no figure).
func relayFail(_ error: any Error) -> Never {
    FileHandle.standardError.write(Data("kindred-soulmate-bench relay: \(error)\n".utf8))
    exit(1)
}

/// Runs `body` for 0..<count, at most `width` at a time.
func relayForEach(_ count: Int, width: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        var next = 0
        while next < min(width, count) { let i = next; group.addTask { try await body(i) }; next += 1 }
        while try await group.next() != nil {
            if next < count { let i = next; group.addTask { try await body(i) }; next += 1 }
        }
    }
}

struct RelayFailure: Error, CustomStringConvertible {
    let description: String
}

func runRelayBench(arguments: [String]) async throws {
    guard let first = arguments.first, let server = URL(string: first) else {
        FileHandle.standardError.write(Data("usage: kindred-soulmate-bench relay SERVER_URL [PAIRS] [MESSAGES] [CONCURRENCY] [BATCH]\n".utf8))
        exit(2)
    }
    let number = { (index: Int, fallback: Int) in arguments.count > index ? Int(arguments[index]) ?? fallback : fallback }
    let pairs = number(1, 100), messages = number(2, 100), concurrency = number(3, 32), batch = number(4, 25)

    func device() throws -> SoulMateDevice {
        let session = KindredSession(serverURL: server, app: .soulmate, store: MemoryTokenStore())
        return SoulMateDevice(
            session: session, secureStore: InMemorySecureStore(), store: try LocalMessageStore.inMemory(),
            installation: .init(id: UUID().uuidString.lowercased(), platform: "linux", deviceName: "bench", appVersion: "bench")
        )
    }
    let devices = try (0..<pairs).map { _ in (try device(), try device()) }
    /// Per pair: the sender's id, the recipient's id, the key version, and the sealed envelopes.
    final class Sealed: @unchecked Sendable {
        var items: [(sender: String, recipient: String, version: Int, envelopes: [(id: String, ciphertext: String)])?]
        init(_ count: Int) { items = Array(repeating: nil, count: count) }
    }
    let sealed = Sealed(pairs)
    let lock = NSLock()
    let setupStart = ContinuousClock.now
    do {
        try await relayForEach(pairs, width: concurrency) { index in
            let (sender, recipient) = devices[index]
            let tag = "\(getpid())-\(index)"
            try await sender.signUp(email: "s\(tag)@bench.example", password: "bench password s", firstName: "S", lastName: "\(index)")
            try await recipient.signUp(email: "r\(tag)@bench.example", password: "bench password r", firstName: "R", lastName: "\(index)")
            let code = try await recipient.pairCode()
            let request = try await sender.requestPair(code: code)
            _ = try await recipient.acceptPairRequest(request.id)
            guard let pair = try await sender.refreshPair() else { throw RelayFailure(description: "pair \(index) did not form") }
            let key = try await sender.chatKey(for: pair)
            let version = try await sender.publishIdentity()
            let me = try await sender.userID()
            var envelopes: [(String, String)] = []
            for m in 0..<messages {
                let payload = ChatPayload(type: .text, value: "message \(m) of pair \(index): a sentence of ordinary chat length 💜")
                envelopes.append((LocalMessage.makeID(), try key.seal(payload)))
            }
            lock.withLock { sealed.items[index] = (me, pair.partnerID, version, envelopes) }
        }
    } catch {
        relayFail(error)
    }
    print("setup \(pairs) pairs, \(pairs * messages) envelopes sealed in \(ContinuousClock.now - setupStart)")

    let start = ContinuousClock.now
    do {
        try await relayForEach(pairs, width: concurrency) { index in
            let (sender, recipient) = devices[index]
            guard let item = lock.withLock({ sealed.items[index] }) else { return }
            var waiting = 0
            for (offset, envelope) in item.envelopes.enumerated() {
                let body = Components.Schemas.SoulMateEnvelopeCreate(
                    id: envelope.id, recipientId: item.recipient, sentAt: Date(), keyVersion: item.version, ciphertext: envelope.ciphertext
                )
                let output = try await sender.session.authorizedCall(with: sender.session.soulmateClient) {
                    try await $0.sendSoulMateEnvelope(headers: .init(xKindredApp: .soulmate), body: .json(body))
                }
                guard case .created = output else { throw RelayFailure(description: "send: \(output)") }
                waiting += 1
                if waiting == batch || offset == item.envelopes.count - 1 {
                    let page = try await recipient.session.authorizedCall(with: recipient.session.soulmateClient) {
                        try await $0.listSoulMateEnvelopes(query: .init(limit: 500), headers: .init(xKindredApp: .soulmate))
                    }
                    guard case .ok(let ok) = page, case .json(let list) = ok.body, list.envelopes.count == waiting else {
                        throw RelayFailure(description: "inbox: \(page)")
                    }
                    let ids = list.envelopes.map(\.id)
                    let ack = try await recipient.session.authorizedCall(with: recipient.session.soulmateClient) {
                        try await $0.acknowledgeSoulMateEnvelopes(headers: .init(xKindredApp: .soulmate), body: .json(.init(ids: ids)))
                    }
                    guard case .ok(let acked) = ack, case .json(let result) = acked.body, result.deleted == waiting else {
                        throw RelayFailure(description: "ack: \(ack)")
                    }
                    waiting = 0
                }
            }
        }
    } catch {
        relayFail(error)
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let total = pairs * messages
    let requests = total + 2 * pairs * ((messages + batch - 1) / batch)
    print("messages \(total) in \(String(format: "%.2f", seconds)) s, concurrency \(concurrency), batch \(batch)")
    print("messages/s \(String(format: "%.1f", Double(total) / seconds))")
    print("requests/message \(String(format: "%.2f", Double(requests) / Double(total)))")
}
