import Foundation
import KindredCrypto
import SoulMateKit

/// The messages the store bench writes: deterministic (SplitMix64), so the store and the
/// baseline get exactly the same rows, generated outside the timed sections.
struct StoreBenchData {
    /// SplitMix64: small, fast and good enough to pick lengths, kinds and gaps.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    static let me = "0b0d7c8e-1f52-4a55-9a4e-3c3b1f0a9d11"
    static let partner = "7f3e2d1c-0b9a-4876-8543-210fedcba987"
    static let words = ["merhaba", "aşkım", "bugün", "akşam", "yemek", "seni", "özledim", "geliyorum", "tamam", "güzel",
                        "love", "you", "see", "tonight", "coffee", "home", "late", "miss", "call", "soon"]
    static let emoji = ["😍", "🫶🏽", "💜", "😂", "🥰", "👍", "🌙"]

    let mainChat: String
    let otherChats: [String]
    let mainMessages: Int
    let otherMessages: Int
    private var generator = Generator(state: 0x5EED_0DA7)
    private var clock: Int64 = 1_700_000_000_000
    private var produced = 0
    private var mainProduced = 0

    init(mainMessages: Int, otherChats: Int, otherMessages: Int) throws {
        mainChat = try ChatID.make(Self.me, Self.partner)
        self.otherChats = (0..<otherChats).map { "other-\($0)_\(Self.me)" }
        self.mainMessages = mainMessages
        self.otherMessages = otherMessages
    }

    var total: Int { mainMessages + otherChats.count * otherMessages }

    /// The next `count` messages (fewer at the end): the main chat's and the other chats'
    /// interleaved in proportion, times moving forward 0–120 s with some equal milliseconds.
    mutating func nextBatch(_ count: Int) -> [LocalMessage] {
        var batch: [LocalMessage] = []
        batch.reserveCapacity(count)
        while batch.count < count, produced < total {
            let remainingMain = mainMessages - mainProduced
            let inMain = generator.below(total - produced) < remainingMain
            let chat = inMain ? mainChat : otherChats[generator.below(max(1, otherChats.count))]
            if inMain { mainProduced += 1 }
            produced += 1
            if generator.below(50) != 0 { clock += Int64(generator.below(120_000)) }
            let incoming = generator.next() & 1 == 0
            let id = Self.timeOrderedID(milliseconds: clock, random: generator.next(), generator.next())
            batch.append(LocalMessage(
                id: id, chatID: chat, senderID: incoming ? Self.partner : Self.me, recipientID: incoming ? Self.me : Self.partner,
                sentAt: Date(timeIntervalSince1970: Double(clock) / 1000), payload: nextPayload(),
                direction: incoming ? .incoming : .outgoing, uploadState: .uploaded,
                createdAt: Date(timeIntervalSince1970: Double(clock + 150) / 1000)))
        }
        return batch
    }

    /// 90 % text of 1–40 words, 5 % emoji, 3 % GIF, 1 % secret, 1 % heartbeat.
    private mutating func nextPayload() -> ChatPayload {
        let roll = generator.below(100)
        switch roll {
        case ..<90:
            let words = (0...generator.below(40)).map { _ in Self.words[generator.below(Self.words.count)] }
            return ChatPayload(type: .text, value: words.joined(separator: " "))
        case ..<95:
            return ChatPayload(type: .emoji, value: (0...generator.below(3)).map { _ in Self.emoji[generator.below(Self.emoji.count)] }.joined())
        case ..<98:
            let id = String(generator.next(), radix: 36)
            return ChatPayload(type: .gif, value: "https://media.giphy.com/media/\(id)/giphy.gif#gif-id=\(id)")
        case ..<99:
            return ChatPayload(type: .secret, value: "seni çok seviyorum \(generator.below(1000))")
        default:
            return ChatPayload(type: .heartbeat, value: "")
        }
    }

    /// A version-7-shaped UUID from a time and two random words (deterministic, unlike `LocalMessage.makeID`).
    static func timeOrderedID(milliseconds: Int64, random a: UInt64, _ b: UInt64) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: UInt64(milliseconds) >> (40 - 8 * UInt64(index))) }
        for index in 6..<11 { bytes[index] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(index - 6))) }
        for index in 11..<16 { bytes[index] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(index - 11))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = Hex.encode(bytes)
        var id = ""
        id.reserveCapacity(36)
        for (offset, character) in hex.enumerated() {
            if offset == 8 || offset == 12 || offset == 16 || offset == 20 { id.append("-") }
            id.append(character)
        }
        return id
    }
}
