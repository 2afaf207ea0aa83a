import ArgumentParser
import EraserKit
import Foundation

/// `kindred eraser vault list|restore|export`.
struct EraserVaultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault", abstract: "The Vault's items: list, put back, export.",
        subcommands: [List.self, Restore.self, Export.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the Vault's items.")
        @OptionGroup var options: EraserDeviceOptions

        func run() async throws {
            try await options.run { (device) throws(EraserKitError) -> [VaultItemOutput] in
                try device.vault.list().map(VaultItemOutput.init)
            } text: { items in
                items.map { "\($0.id)\t\($0.type)\t\($0.originalPath ?? "-")\t\($0.coolingOff?.status ?? "-")" }.joined(separator: "\n")
            }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put an item back where it came from, byte-exact.")
        @OptionGroup var options: EraserDeviceOptions
        @Argument(help: "The Vault item's id.") var id: String

        func run() async throws {
            let id = id
            try await options.run { (device) throws(EraserKitError) -> VaultItemOutput in
                VaultItemOutput(try device.restore(try VaultItemID(validating: id)))
            } text: { "restored \($0.id) to \($0.originalPath ?? "its calendar") as \($0.restoredAs ?? "-")" }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a decrypted copy of an item into a folder.")
        @OptionGroup var options: EraserDeviceOptions
        @Argument(help: "The Vault item's id.") var id: String
        @Argument(help: "The folder to write into.") var directory: String

        struct Output: Encodable { var file: String }

        func run() async throws {
            let id = id
            let directory = URL(fileURLWithPath: directory)
            try await options.run { (device) throws(EraserKitError) -> Output in
                Output(file: try device.vault.export(try VaultItemID(validating: id), into: directory).path)
            } text: { $0.file }
        }
    }
}

/// `kindred eraser cooling-off list|restore`.
struct EraserCoolingOffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cooling-off", abstract: "The Cooling Off bin: what waits to be deleted, and taking it back.",
        subcommands: [List.self, Restore.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List what waits in the Cooling Off bin.")
        @OptionGroup var options: EraserDeviceOptions

        func run() async throws {
            try await options.run { (device) throws(EraserKitError) -> [CoolingOffOutput] in
                try device.vault.coolingOff().map(CoolingOffOutput.init)
            } text: { entries in
                entries.map { "\($0.itemID ?? "-")\t\($0.status)\t\($0.deleteAfter)" }.joined(separator: "\n")
            }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take an item out of the bin, back into the Vault.")
        @OptionGroup var options: EraserDeviceOptions
        @Argument(help: "The Vault item's id.") var id: String

        func run() async throws {
            let id = id
            try await options.run { (device) throws(EraserKitError) -> CoolingOffOutput in
                CoolingOffOutput(try device.vault.restoreFromCoolingOff(try VaultItemID(validating: id)))
            } text: { "\($0.itemID ?? "-") is back in the Vault" }
        }
    }
}

/// `kindred eraser tick`: the background task (Cooling Off check and due notifications).
struct EraserTickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tick", abstract: "Run the background task: destroy expired Cooling Off items, deliver due reminders.")
    @OptionGroup var options: EraserDeviceOptions
    @Option(help: "The time to run at, ISO 8601 (for tests; default: now).") var now: String?

    struct Notification: Encodable { var id: String; var date: Date; var title: String; var body: String }
    struct Output: Encodable { var destroyed: [String]; var reminded: Int; var pending: Int; var notifications: [Notification] }

    func run() async throws {
        let at = try options.checked { try now.map { try EraserJSON.date($0, option: "--now") } } ?? Date()
        try await options.run { (device) throws(EraserKitError) -> Output in
            let report = try device.tick(now: at)
            return Output(destroyed: report.coolingOff.destroyed.map(\.rawValue), reminded: report.coolingOff.reminded,
                          pending: report.coolingOff.pending,
                          notifications: report.notifications.map { Notification(id: $0.id, date: $0.date, title: $0.title, body: $0.body) })
        } text: { "\($0.destroyed.count) destroyed, \($0.pending) waiting, \($0.notifications.count) notifications" }
    }
}

/// `kindred eraser history`: the scans the Vault remembers.
struct EraserHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "The scans run on this device, newest first.")
    @OptionGroup var options: EraserDeviceOptions

    struct Row: Encodable {
        var id: String; var startedAt: Date; var completedAt: Date?
        var totalScanned: Int?; var totalMatched: Int?; var totalVaulted: Int?; var totalDeleted: Int?
    }

    func run() async throws {
        try await options.run { (device) throws(EraserKitError) -> [Row] in
            try device.history().map {
                Row(id: $0.id, startedAt: $0.startedAt, completedAt: $0.completedAt, totalScanned: $0.totalScanned,
                    totalMatched: $0.totalMatched, totalVaulted: $0.totalVaulted, totalDeleted: $0.totalDeleted)
            }
        } text: { rows in
            rows.map { "\($0.id)\t\($0.startedAt)\tmatched \($0.totalMatched ?? 0)\tvaulted \($0.totalVaulted ?? 0)\tdeleted \($0.totalDeleted ?? 0)" }
                .joined(separator: "\n")
        }
    }
}
