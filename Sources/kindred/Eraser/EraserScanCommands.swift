import ArgumentParser
import EraserKit
import Foundation
import KindredClient

/// `kindred eraser setup`: creates the profile's Vault; the passphrase comes from
/// KINDRED_PROFILE_PASSPHRASE or standard input, never a flag.
struct EraserSetupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Set up Ex-Eraser's Vault in a profile (passphrase: $KINDRED_PROFILE_PASSPHRASE or standard input).")
    @OptionGroup var options: EraserDeviceOptions

    struct Output: Encodable { var profile: String; var vault: String }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let store: FileSecureStore
        if let passphrase = environment[FileSecureStore.passphraseVariable], !passphrase.isEmpty {
            store = options.secureStore()
        } else {
            let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            let passphrase = input.trimmingCharacters(in: .newlines)
            try options.checked {
                guard !passphrase.isEmpty else {
                    throw ValidationError("give the Vault passphrase on standard input or in \(FileSecureStore.passphraseVariable)")
                }
            }
            store = FileSecureStore(profileDirectory: options.profileURL,
                                    keySource: .passphrase(passphrase, FileSecureStore.passphraseParameters))
        }
        let profile = options.profileURL
        try await options.report { () throws(EraserKitError) -> Output in
            let device = try EraserDevice.setUp(profileDirectory: profile, secureStore: store)
            return Output(profile: profile.path, vault: device.vault.folder.path)
        } text: { "Vault set up in \($0.vault)" }
    }
}

/// A scan summary as the commands print it.
struct ScanSummaryOutput: Encodable {
    var resultCount: Int
    var byCategory: [String: Int]
    var skipped: Int
    var threshold: Double

    init(_ summary: ScanSummary) {
        resultCount = summary.resultCount
        byCategory = Dictionary(uniqueKeysWithValues: summary.byCategory.map { ($0.key.rawValue, $0.value) })
        skipped = summary.skipped
        threshold = summary.threshold
    }

    var text: String {
        "\(resultCount) results (" + byCategory.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            + "), \(skipped) skipped"
    }
}

/// `kindred eraser scan`: finds the photos and events of the relationship.
struct EraserScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a photo folder (and a calendar) for faces, dates and a contact; progress goes to standard error.")
    @OptionGroup var options: EraserDeviceOptions
    @Option(help: "The photo library folder.") var photos: String?
    @Option(help: "The calendar: an .ics file or a folder of them.") var calendar: String?
    @Option(parsing: .upToNextOption, help: "1–5 photos of the ex's face (needs the face worker).") var refs: [String] = []
    @Option(help: "The first day of the relationship, YYYY-MM-DD.") var from: String?
    @Option(help: "The last day of the relationship, YYYY-MM-DD.") var to: String?
    @Option(help: "The ex as a contact: a name, a phone number or an email address (repeatable).") var contact: [String] = []
    @Option(help: "The time zone dates are read in (default: this machine's).") var timeZone: String?
    @Option(help: "The country calling code of numbers written without one (44).") var countryCode: Int?
    @Option(help: "Photos per batch; a checkpoint is kept after each (default 50).") var batchSize = ScanConfiguration.defaultBatchSize
    @Flag(help: "Continue the cancelled or failed scan instead of starting a new one.") var resume = false

    /// The options' own rules (checked in `run`, so `--json` can report them as JSON).
    func check() throws {
        if !(1...10_000).contains(batchSize) { throw ValidationError("--batch-size must be 1 to 10000, not \(batchSize)") }
        if !resume && photos == nil { throw ValidationError("--photos is required (unless --resume)") }
        if (from == nil) != (to == nil) { throw ValidationError("--from and --to go together") }
        if let timeZone, TimeZone(identifier: timeZone) == nil { throw ValidationError("unknown --time-zone \(timeZone)") }
        if contact.filter({ Self.kind(of: $0) == .name }).count > 1 { throw ValidationError("give at most one contact name") }
    }

    enum ContactKind { case name, phone, email }

    /// Whether a --contact value is an email address, a phone number or a name.
    static func kind(of value: String) -> ContactKind {
        if value.contains("@") { return .email }
        let digits = value.filter(\.isNumber).count
        let allowed = value.allSatisfy { $0.isNumber || "+-() .".contains($0) }
        return allowed && digits >= 5 ? .phone : .name
    }

    func scanRequest() throws -> ScanRequest {
        var ranges: [ScanDateRange] = []
        if let from, let to {
            ranges.append(ScanDateRange(from: try EraserJSON.day(from, option: "--from"), through: try EraserJSON.day(to, option: "--to")))
        }
        var scanContact: ScanContact?
        if !contact.isEmpty {
            scanContact = ScanContact(name: contact.first { Self.kind(of: $0) == .name },
                                      phones: contact.filter { Self.kind(of: $0) == .phone },
                                      emails: contact.filter { Self.kind(of: $0) == .email })
        }
        return ScanRequest(
            photos: URL(fileURLWithPath: photos ?? "."), calendar: calendar.map { URL(fileURLWithPath: $0) },
            references: refs.map { URL(fileURLWithPath: $0) }, dateRanges: ranges, contact: scanContact,
            timeZone: timeZone.flatMap(TimeZone.init(identifier:)) ?? .current, defaultCountryCode: countryCode,
            batchSize: batchSize)
    }

    /// One progress line: phase, done/total, rate and time left.
    static func progressLine(_ progress: ScanProgress) -> String {
        var line = "scan: \(progress.phase.rawValue) (\(progress.phaseIndex + 1)/\(progress.phaseCount)) \(progress.done)/\(progress.total)"
        if let rate = progress.itemsPerSecond { line += String(format: ", %.1f/s", rate) }
        if let left = progress.secondsRemaining { line += String(format: ", ETA %.0fs", left) }
        return line + "\n"
    }

    /// Runs the scan; Ctrl-C (SIGINT) pauses it after the current batch, leaving a checkpoint that
    /// `--resume` continues from (the command then fails with `scan.cancelled`).
    func run() async throws {
        let request = try options.checked { try check(); return try scanRequest() }
        let resume = resume
        let options = options
        let progress: @Sendable (ScanProgress) -> Void = { FileHandle.standardError.write(Data(Self.progressLine($0).utf8)) }
        let scan = Task {
            try await options.run { (device) async throws(EraserKitError) -> ScanSummaryOutput in
                let summary = resume
                    ? try await device.resume(defaultCountryCode: request.defaultCountryCode, progress: progress)
                    : try await device.scan(request, progress: progress)
                return ScanSummaryOutput(summary)
            } text: { $0.text }
        }
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            FileHandle.standardError.write(Data("scan: stopping after this batch; continue with --resume\n".utf8))
            scan.cancel()
        }
        interrupt.resume()
        defer { interrupt.cancel() }
        try await scan.value
    }
}

/// `kindred eraser review`: the current scan's results and decisions; `--open KEY` writes one
/// result's thumbnail to a file to look at instead.
struct EraserReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "review", abstract: "List the scan's results and their decisions.")
    @OptionGroup var options: EraserDeviceOptions

    @Option(name: .customLong("open"), help: "Write this result's thumbnail (a JPEG, at most 256 px) and print its path.")
    var openKey: String?

    @Option(help: "With --open: the file to write (default: <profile>/previews/<key>.jpg).")
    var out: String?

    struct Result: Encodable {
        var key: String
        var kind: String
        var categories: [String]
        var confidence: Double
        var date: Date
        var decision: String?
        /// A photo's path in the library.
        var path: String?
        /// An event's title.
        var title: String?
    }
    struct Output: Encodable { var summary: ScanSummaryOutput; var results: [Result] }
    /// What `--open` wrote.
    struct Preview: Encodable { var key: String; var thumbnail: String; var width: Int; var height: Int; var source: String }

    func run() async throws {
        if let openKey {
            let file = out.map { URL(fileURLWithPath: $0) }
            try await options.run { (device) throws(EraserKitError) -> Preview in
                let preview = try device.preview(openKey, to: file)
                return Preview(key: preview.key, thumbnail: preview.file.path, width: preview.width,
                               height: preview.height, source: preview.source.rawValue)
            } text: { $0.thumbnail }
            return
        }
        try options.checked { () throws -> Void in
            if out != nil { throw ValidationError("--out needs --open KEY") }
        }
        try await options.run { (device) throws(EraserKitError) -> Output in
            let review = try device.review()
            let found = try review.results()
            let places = try device.places(of: found.map(\.item))
            let results = found.map {
                Result(key: $0.item.key, kind: $0.kind.rawValue, categories: $0.categories.map(\.rawValue),
                       confidence: $0.confidence, date: $0.date, decision: $0.decision?.rawValue,
                       path: places[$0.item]?.path, title: places[$0.item]?.title)
            }
            return Output(summary: ScanSummaryOutput(try review.summary()), results: results)
        } text: { output in
            ([output.summary.text] + output.results.map {
                "\($0.key)\t\($0.kind)\t\($0.categories.joined(separator: ","))\t\($0.decision ?? "-")\t\($0.path ?? $0.title ?? "-")"
            }).joined(separator: "\n")
        }
    }
}

/// `kindred eraser decide KEY vault|delete|keep`.
struct EraserDecideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "decide", abstract: "Decide what happens to one result.")
    @OptionGroup var options: EraserDeviceOptions
    @Argument(help: "The result's key, as `review` prints it (asset:<id>, event:<id>).") var key: String
    @Argument(help: "vault, delete or keep.") var decision: String

    struct Output: Encodable { var key: String; var decision: String }

    func run() async throws {
        let decision = decision
        let decided = try options.checked {
            guard let decided = ReviewDecision(rawValue: decision) else {
                throw ValidationError("the decision must be vault, delete or keep, not \(decision)")
            }
            return decided
        }
        let key = key
        try await options.run { (device) throws(EraserKitError) -> Output in
            try device.decide(key, decided)
            return Output(key: key, decision: decided.rawValue)
        } text: { "\($0.key): \($0.decision)" }
    }
}

/// `kindred eraser apply`: carries out the pending decisions.
struct EraserApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply", abstract: "Move decided items into the Vault or the Cooling Off bin.")
    @OptionGroup var options: EraserDeviceOptions
    @Option(help: "The time to act at, ISO 8601 (for tests; default: now).") var now: String?

    struct Entry: Encodable { var key: String; var decision: String; var vaultItemID: String; var deleteAfter: Date? }
    struct Output: Encodable { var applied: [Entry] }

    func run() async throws {
        let at = try options.checked { try now.map { try EraserJSON.date($0, option: "--now") } } ?? Date()
        try await options.run { (device) throws(EraserKitError) -> Output in
            Output(applied: try device.apply(now: at).entries.map {
                Entry(key: $0.itemKey, decision: $0.decision.rawValue, vaultItemID: $0.vaultItemID.rawValue, deleteAfter: $0.deleteAfter)
            })
        } text: { output in
            output.applied.map { "\($0.key)\t\($0.decision)\t\($0.vaultItemID)" }.joined(separator: "\n")
        }
    }
}
