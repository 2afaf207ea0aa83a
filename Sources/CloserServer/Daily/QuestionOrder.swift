import KindredServerCore

/// A couple's order through a pack: a shuffle of the pack's active questions seeded by the
/// couple, the pack and the cycle, walked by the couple's `pack_cursor`. Random to the couple,
/// no repeat within a cycle (until the pack is exhausted), a fresh order for the next cycle —
/// and no history query per assignment, which keeps the daily job fast.
///
/// Changing a pack's active questions (an import) changes the order of the current cycle, so a
/// question may then come again before the cycle ends.
enum QuestionOrder {
    /// The question at `cursor` of the couple's order through `pack`.
    /// - Returns: nil when the pack has no active question.
    static func question(at cursor: Int, coupleID: String, pack: CloserCatalog.Pack) -> CloserCatalog.Question? {
        let questions = pack.activeQuestions
        guard !questions.isEmpty else { return nil }
        let cycle = cursor / questions.count
        let position = cursor % questions.count
        var generator = SplitMix64(seed: fnv1a("\(coupleID)|\(pack.id)|\(cycle)"))
        var order = Array(0..<questions.count)
        // Fisher–Yates, stopping once `position` is settled.
        for i in 0...position {
            let j = i + Int(generator.next() % UInt64(questions.count - i))
            order.swapAt(i, j)
        }
        return questions[order[position]]
    }

    /// FNV-1a, 64 bits.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// SplitMix64: a small, well-mixed deterministic generator.
    struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }
}
