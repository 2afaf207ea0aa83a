import ArgumentParser
import CloserAPI
import CloserKit
import Foundation

/// `kindred closer bucket add|list|done|remove`: the couple's bucket list.
struct CloserBucketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bucket", abstract: "The couple's bucket list: add, list, complete, remove (either partner).",
        subcommands: [Add.self, List.self, Done.self, Remove.self]
    )

    /// `bucket add TITLE [--category C]`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an item (the title is stored in plaintext under the couple).")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "What you want to do together.") var title: String
        @Option(help: "A category such as adventure or food.") var category: String?

        func run() async throws {
            try await options.run { device in
                let item = try await device.addBucketItem(title: title, category: category)
                try options.output(item, lines: ["added \(item.id): \(item.title)"])
            }
        }
    }

    /// `bucket list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open items first, then completed ones.")
        @OptionGroup var options: CloserPlayOptions

        func run() async throws {
            try await options.run { device in
                let items = try await device.bucketItems()
                try options.output(
                    Components.Schemas.CloserBucketList(items: items),
                    lines: items.isEmpty ? ["the bucket list is empty"] : items.map { "\($0.completedAt == nil ? "[ ]" : "[x]") \($0.id)  \($0.title)" }
                )
            }
        }
    }

    /// `bucket done ID [--undo]`.
    struct Done: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark an item completed (or, with --undo, open again).")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The item's id.") var item: String
        @Flag(help: "Open the item again.") var undo = false

        func run() async throws {
            try await options.run { device in
                let updated = try await device.completeBucketItem(item, completed: !undo)
                try options.output(updated, lines: ["\(updated.completedAt == nil ? "reopened" : "completed") \(updated.id): \(updated.title)"])
            }
        }
    }

    /// `bucket remove ID`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an item.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The item's id.") var item: String

        func run() async throws {
            try await options.run { device in
                try await device.removeBucketItem(item)
                try options.output(["removed": item], lines: ["removed \(item)"])
            }
        }
    }
}
