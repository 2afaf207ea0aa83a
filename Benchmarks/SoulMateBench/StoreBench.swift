import Crypto
import Foundation
import GRDB
import KindredCrypto
import SoulMateKit

/// The local store benchmark: bulk insert through `LocalMessageStore` (validated, encrypted,
/// batched) against plain GRDB inserts of the same rows without encryption, same batches, same
/// schema, measured batch by batch in the same run; then a chat's newest 50 opened at random
/// positions and at the newest, against the same query without decryption; and peak memory.
struct StoreBenchOptions {
    var mainMessages = 1_000_000
    var otherChats = 3
    var otherMessages = 20_000
    var batch = 1_000
    var opens = 1_000
    var directory: String?
    var json = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw StoreBenchError("\(name) needs a value") }
            return next
        }
        func count(_ name: String) throws -> Int {
            guard let number = Int(try value(name)), number >= 0 else { throw StoreBenchError("\(name) needs a count") }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--messages": mainMessages = try count(argument)
            case "--other-chats": otherChats = try count(argument)
            case "--other-messages": otherMessages = try count(argument)
            case "--batch": batch = max(1, try count(argument))
            case "--opens": opens = max(1, try count(argument))
            case "--dir": directory = try value(argument)
            case "--json": json = true
            default: throw StoreBenchError("unknown argument \(argument)")
            }
        }
        guard mainMessages >= 51 else { throw StoreBenchError("--messages must be more than 50") }
    }
}

struct StoreBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func runStoreBench(arguments: [String]) throws {
    let options = try StoreBenchOptions(arguments)
    let parent = options.directory ?? NSTemporaryDirectory()
    let folder = URL(fileURLWithPath: parent).appendingPathComponent("soulmate-store-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    let storePath = folder.appendingPathComponent("store.sqlite").path
    let baselinePath = folder.appendingPathComponent("baseline.sqlite").path
    let store = try LocalMessageStore(path: storePath, keyBytes: LocalMessageStore.generateKey())
    // The baseline gets the same schema (the store's migrations, run by opening a store on its
    // file once), then plain GRDB on its own connection with the same configuration.
    _ = try LocalMessageStore(path: baselinePath, keyBytes: LocalMessageStore.generateKey())
    let baseline = try PlainBaseline(path: baselinePath)

    var data = try StoreBenchData(mainMessages: options.mainMessages, otherChats: options.otherChats,
                                  otherMessages: options.otherMessages)
    var random = StoreBenchData.Generator(state: 42)
    var cursors: [MessageCursor] = []
    let clock = ContinuousClock()
    let started = clock.now
    var storeTime = Duration.zero
    var baselineTime = Duration.zero
    var inserted = 0
    var mainSeen = 0
    var batches = 0
    while true {
        let batch = data.nextBatch(options.batch)
        guard !batch.isEmpty else { break }
        // Reservoir of random positions in the main chat for the page opens.
        for message in batch where message.chatID == data.mainChat {
            mainSeen += 1
            if cursors.count < options.opens {
                cursors.append(message.cursor)
            } else {
                let slot = random.below(mainSeen)
                if slot < options.opens { cursors[slot] = message.cursor }
            }
        }
        // Alternate which goes first, so neither always meets a warmer cache.
        if batches % 2 == 0 {
            baselineTime += try clock.measure { try baseline.insert(batch) }
            storeTime += try clock.measure { inserted += try store.insert(batch) }
        } else {
            storeTime += try clock.measure { inserted += try store.insert(batch) }
            baselineTime += try clock.measure { try baseline.insert(batch) }
        }
        batches += 1
        if batches % 100 == 0 {
            progress("\(inserted) of \(data.total) stored; timed: store \(format(storeTime)), baseline \(format(baselineTime)); "
                + "wall \(format(clock.now - started))")
        }
    }
    progress("inserts done after \(format(clock.now - started)); opening pages")
    guard inserted == data.total else { throw StoreBenchError("stored \(inserted) of \(data.total) messages") }

    // Page opens: the same cursors, in the same shuffled order, for both.
    cursors.shuffle(using: &random)
    var storeRandom: [Duration] = []
    var baselineRandom: [Duration] = []
    var storeNewest: [Duration] = []
    var baselineNewest: [Duration] = []
    var opened = 0
    var openedBaseline = 0
    for cursor in cursors {
        storeRandom.append(try clock.measure { opened += try store.newest(chatID: data.mainChat, limit: 50, before: cursor).count })
        baselineRandom.append(try clock.measure {
            openedBaseline += try baseline.newest(chatID: data.mainChat, limit: 50, before: cursor).count
        })
    }
    guard opened == openedBaseline, opened > 0 else {
        throw StoreBenchError("the random opens returned \(opened) messages (baseline \(openedBaseline))")
    }
    for _ in 0..<options.opens {
        var count = 0
        storeNewest.append(try clock.measure { count = try store.newest(chatID: data.mainChat, limit: 50).count })
        guard count == 50 else { throw StoreBenchError("the newest page has \(count) messages") }
        baselineNewest.append(try clock.measure { _ = try baseline.newest(chatID: data.mainChat, limit: 50, before: nil) })
    }

    progress("pages done after \(format(clock.now - started))")
    let report = StoreBenchReport(
        options: options, total: data.total, batches: batches,
        storeInsertSeconds: storeTime.seconds, baselineInsertSeconds: baselineTime.seconds,
        storeRandom: storeRandom.map(\.milliseconds), baselineRandom: baselineRandom.map(\.milliseconds),
        storeNewest: storeNewest.map(\.milliseconds), baselineNewest: baselineNewest.map(\.milliseconds),
        storeBytes: StoreBenchReport.fileSize(storePath), baselineBytes: StoreBenchReport.fileSize(baselinePath),
        peakMemoryKiB: StoreBenchReport.procStatus("VmHWM"), cores: ProcessInfo.processInfo.activeProcessorCount)
    print(options.json ? try report.json() : report.table())
}

/// A progress line on standard error (standard output stays the report).
func progress(_ line: String) {
    FileHandle.standardError.write(Data("  … \(line)\n".utf8))
}

func format(_ duration: Duration) -> String { String(format: "%.1f s", duration.seconds) }

/// Plain GRDB on the store's schema: the same inserts (cached statement, one transaction per
/// batch) with the value in clear, and the same page query without decryption.
struct PlainBaseline {
    let pool: DatabasePool

    init(path: String) throws {
        var configuration = Configuration()
        configuration.label = "soulmate-baseline"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        pool = try DatabasePool(path: path, configuration: configuration)
    }

    func insert(_ messages: [LocalMessage]) throws {
        try pool.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO local_messages (id, chat_id, sender_id, recipient_id, sent_at, payload_type, payload_value,
                                            is_secret, direction, upload_state, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """)
            for message in messages {
                let payload = message.payload ?? ChatPayload(type: .heartbeat, value: "")
                try statement.execute(arguments: [
                    message.id, message.chatID, message.senderID, message.recipientID,
                    Int64((message.sentAt.timeIntervalSince1970 * 1000).rounded()), payload.type.rawValue,
                    Data(payload.value.utf8), message.isSecret ? 1 : 0, message.direction.rawValue,
                    message.uploadState.rawValue, Int64((message.createdAt.timeIntervalSince1970 * 1000).rounded()),
                ])
            }
        }
    }

    /// One row of the page, read into plain values (no decryption, no payload checks).
    struct PlainRow {
        let id, chatID, senderID, recipientID, payloadType, direction, uploadState: String
        let sentAt, createdAt: Int64
        let value: Data
        let isSecret: Bool
        let openedAt: Int64?
        let attempts: Int?
    }

    func newest(chatID: String, limit: Int, before: MessageCursor?) throws -> [PlainRow] {
        let select = """
            SELECT m.id, m.chat_id, m.sender_id, m.recipient_id, m.sent_at, m.payload_type, m.payload_value,
                   m.is_secret, m.direction, m.upload_state, m.created_at,
                   o.opened_at, f.reason, f.attempts, f.retryable, f.updated_at
            FROM local_messages m
            LEFT JOIN local_message_opened o ON o.message_id = m.id
            LEFT JOIN local_message_failures f ON f.message_id = m.id
            """
        return try pool.read { db in
            let statement: Statement
            let arguments: StatementArguments
            if let before {
                let millis = Int64((before.sentAt.timeIntervalSince1970 * 1000).rounded())
                statement = try db.cachedStatement(sql: select + """
                     WHERE m.chat_id = ? AND m.sent_at <= ? AND (m.sent_at < ? OR m.id < ?)
                     ORDER BY m.sent_at DESC, m.id DESC LIMIT ?
                    """)
                arguments = [chatID, millis, millis, before.id, limit]
            } else {
                statement = try db.cachedStatement(sql: select + " WHERE m.chat_id = ? ORDER BY m.sent_at DESC, m.id DESC LIMIT ?")
                arguments = [chatID, limit]
            }
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            var page: [PlainRow] = []
            while let row = try rows.next() {
                page.append(PlainRow(
                    id: try row.decode(atIndex: 0), chatID: try row.decode(atIndex: 1), senderID: try row.decode(atIndex: 2),
                    recipientID: try row.decode(atIndex: 3), payloadType: try row.decode(atIndex: 5),
                    direction: try row.decode(atIndex: 8), uploadState: try row.decode(atIndex: 9),
                    sentAt: try row.decode(atIndex: 4), createdAt: try row.decode(atIndex: 10), value: try row.decode(atIndex: 6),
                    isSecret: try row.decode(Int64.self, atIndex: 7) != 0, openedAt: try row.decode(atIndex: 11),
                    attempts: try row.decode(atIndex: 13)))
            }
            return page
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
    var milliseconds: Double { seconds * 1000 }
}
