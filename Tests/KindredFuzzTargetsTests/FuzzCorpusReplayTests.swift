import Foundation
import KindredFuzzTargets
import Testing

/// Replays every file of `Fuzz/corpus/NAME/` through target NAME in the ordinary test build, so a
/// regression input (a crash or broken invariant `scripts/fuzz` found, kept in the corpus) fails
/// the suite once the bug comes back (docs/reliability.md, "Coverage-guided fuzzing").
@Suite struct FuzzCorpusReplayTests {
    /// `Fuzz/corpus` of this checkout.
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus")

    /// The files of one target's corpus folder, sorted.
    static func files(of target: String) throws -> [URL] {
        let folder = corpus.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTargets.names)
    func everyCorpusInputPassesItsTarget(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let files = try Self.files(of: name)
        #expect(files.count >= 3, "\(name) has \(files.count) corpus files")
        var accepted = 0
        for file in files {
            let input = try [UInt8](Data(contentsOf: file))
            #expect(throws: Never.self, "\(file.lastPathComponent)") { if try target.run(input) { accepted += 1 } }
        }
        // Some seeds are real, accepted inputs (the invariants live on the success path); others
        // are near misses that exercise the refusals.
        #expect(accepted >= 2, "\(name): \(accepted) of \(files.count) corpus inputs accepted")
    }

    @Test func everyCorpusFolderNamesATargetAndTargetsAreUnique() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(FuzzTargets.names))
        #expect(Set(FuzzTargets.names).count == FuzzTargets.all.count)
    }

    @Test func aBrokenInvariantIsReportedAsAFindingOfItsTarget() throws {
        let target = FuzzTarget(name: "odd-length", summary: "refuses odd lengths") { input throws(FuzzFinding) -> Bool in
            guard input.count.isMultiple(of: 2) else { throw FuzzFinding(target: "odd-length", message: "\(input.count) bytes") }
            return !input.isEmpty
        }
        #expect(try target.run([1, 2]))
        #expect(try !target.run([]))
        #expect(throws: FuzzFinding(target: "odd-length", message: "3 bytes")) { try target.run([1, 2, 3]) }
    }
}
