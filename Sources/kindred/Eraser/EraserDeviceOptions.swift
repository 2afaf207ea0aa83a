import ArgumentParser
import EraserKit
import Foundation
import KindredClient

/// The options every device-side `eraser` command takes: the profile (one simulated phone) and
/// the output format.
struct EraserDeviceOptions: ParsableArguments {
    @Option(help: "The profile folder of this device (default: $KINDRED_PROFILE or ./profiles/default).")
    var profile: String?

    @Flag(help: "Print one JSON document on standard output.")
    var json = false

    /// The profile folder.
    var profileURL: URL {
        URL(fileURLWithPath: profile ?? ProcessInfo.processInfo.environment["KINDRED_PROFILE"] ?? "profiles/default")
    }

    /// The profile's secure store (passphrase mode when KINDRED_PROFILE_PASSPHRASE is set).
    func secureStore() -> FileSecureStore {
        FileSecureStore(profileDirectory: profileURL, environment: ProcessInfo.processInfo.environment)
    }

    /// Opens the device and runs `body` with it; a typed error becomes a message and exit status 1.
    func run<T: Encodable>(_ body: (EraserDevice) async throws(EraserKitError) -> T,
                           text: (T) -> String) async throws {
        try await report {  () async throws(EraserKitError) -> T in
            try await body(try EraserDevice.open(profileDirectory: profileURL, secureStore: secureStore()))
        } text: { text($0) }
    }

    /// Runs the command's own argument checks: a `ValidationError` is, with `--json`, a JSON error
    /// (code `usage`) on standard output and one line on standard error, exit status 64; without
    /// it, ArgumentParser's message with the usage.
    func checked<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ValidationError {
            guard json else { throw error }
            print(try EraserJSON.text(["error": ["code": "usage", "message": error.message]]))
            FileHandle.standardError.write(Data("error: \(error.message) (usage)\n".utf8))
            throw ExitCode.validationFailure
        }
    }

    /// Runs `body`, prints its result (JSON or `text`), or its typed error and exits with 1.
    func report<T: Encodable>(_ body: () async throws(EraserKitError) -> T, text: (T) -> String) async throws {
        do {
            let value = try await body()
            print(json ? try EraserJSON.text(value) : text(value))
        } catch let error as EraserKitError {
            if json { print(try EraserJSON.text(["error": ["code": error.code, "message": error.message]])) }
            FileHandle.standardError.write(Data("error: \(error.message) (\(error.code))\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// The JSON the `eraser` device commands print.
enum EraserJSON {
    /// `value` as sorted, pretty JSON with ISO 8601 dates.
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// An ISO 8601 instant (`2024-07-14T18:30:05Z`), or a validation error naming `option`.
    static func date(_ text: String, option: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        throw ValidationError("\(option) must be an ISO 8601 instant (2024-07-14T18:30:05Z), not \(text)")
    }

    /// A day `YYYY-MM-DD`, or a validation error naming `option`.
    static func day(_ text: String, option: String) throws -> ScanDay {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2] else {
            throw ValidationError("\(option) must be a day, YYYY-MM-DD, not \(text)")
        }
        return ScanDay(year: year, month: month, day: day)
    }
}

/// A Vault item as the commands print it.
struct VaultItemOutput: Encodable {
    var id: String
    var originalID: String
    var type: String
    var matchType: String
    var originalPath: String?
    var title: String?
    var capturedAt: Date?
    var createdAt: Date
    var byteCount: Int64
    var coolingOff: CoolingOffOutput?
    /// After `vault restore`: the result key (`asset:<id>`, `event:<id>`) the item has now in the
    /// library or calendar (a new id with PhotoKit and EventKit); absent elsewhere.
    var restoredAs: String?

    init(_ report: RestoreReport) {
        self.init(report.item)
        restoredAs = report.restoredAs.key
    }

    init(_ item: VaultItem) {
        id = item.id.rawValue
        originalID = item.originalID
        type = item.type.rawValue
        matchType = item.matchType.rawValue
        originalPath = item.metadata.originalPath
        title = item.metadata.title
        capturedAt = item.metadata.capturedAt
        createdAt = item.createdAt
        byteCount = item.byteCount
        coolingOff = item.coolingOff.map(CoolingOffOutput.init)
    }
}

/// A Cooling Off entry as the commands print it.
struct CoolingOffOutput: Encodable {
    var id: String
    var itemID: String?
    var status: String
    var deleteAfter: Date
    var remindAt: Date

    init(_ entry: CoolingOffEntry) {
        id = entry.id
        itemID = entry.itemID?.rawValue
        status = entry.status.rawValue
        deleteAfter = entry.deleteAfter
        remindAt = entry.remindAt
    }
}
