@testable import KindredServer
@testable import KindredServerCore
@testable import SoulMateServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredCrypto
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The server never holds a message or a location in the clear: after a conversation sealed with
/// real keys, no column of any table contains the plaintext. (The scan of a live server's files
/// and log is a separate, end-to-end test.)
@Suite struct SoulMatePrivacyTests {
    /// Every text value of every table of the database, one string per row.
    static func everyRow(of database: Database, backend: Backend) async throws -> [(table: String, text: String)] {
        let sql = database.sql
        let tables: [String]
        switch backend {
        case .sqlite:
            tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table'").all()
                .map { try $0.decode(column: "name", as: String.self) }
        case .postgresql:
            tables = try await sql.raw("""
                SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                """).all().map { try $0.decode(column: "table_name", as: String.self) }
        }
        var rows: [(String, String)] = []
        for table in tables {
            switch backend {
            case .sqlite:
                for row in try await sql.raw("SELECT * FROM \(ident: table)").all() {
                    let values = row.allColumns.map { column -> String in
                        if let text = try? row.decode(column: column, as: String.self) { return text }
                        if let data = try? row.decode(column: column, as: Data.self) { return String(decoding: data, as: UTF8.self) }
                        return ""
                    }
                    rows.append((table, values.joined(separator: "\u{1F}")))
                }
            case .postgresql:
                // The whole row as PostgreSQL writes it as text (bytea as hex, so also decode that).
                for row in try await sql.raw("SELECT CAST(t AS TEXT) AS row_text FROM \(ident: table) t").all() {
                    rows.append((table, try row.decode(column: "row_text", as: String.self)))
                }
            }
        }
        return rows
    }

    @Test(arguments: Backend.all)
    func noPlaintextOfAConversationIsStoredAnywhere(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let couple = try await client.soulmateCouple("privacy")
            let (ada, bea) = (couple.a, couple.b)
            let markers = [
                "PLAINTEXT-MARKER-123", "PLAINTEXT-MARKER-456 with a longer sentence", "SECRET-MARKER-789", "LOCATION-MARKER-52.52",
                "https://gif.example/GIF-MARKER-000",
            ]
            // Text both ways, a secret, a GIF, an emoji, a heartbeat; one acknowledged, the rest waiting.
            let first = try await client.sendMessage(markers[0], from: ada, to: bea)
            #expect(first.response.status == .created)
            #expect(try await client.sendMessage(markers[1], from: bea, to: ada).response.status == .created)
            for (type, value) in [(ChatPayload.Kind.secret, markers[2]), (.gif, markers[4]), (.emoji, "💞"), (.heartbeat, "")] {
                let sealed = try SoulMateFixtures.chatKey(ada, bea).seal(ChatPayload(type: type, value: value))
                let sent = try await client.soulmate(
                    .post, "/v1/soulmate/messages", token: ada.token,
                    json: SoulMateFixtures.envelope(id: SoulMateFixtures.messageID(), to: bea.id, ciphertext: sealed)
                )
                #expect(sent.status == .created, "\(sent.text)")
            }
            let located = try await client.soulmate(
                .put, "/v1/soulmate/pair/location", token: ada.token,
                json: #"{"ciphertext":"\#(try SoulMateFixtures.seal(markers[3], from: ada, to: bea))"}"#
            )
            #expect(located.status == .ok)
            _ = try await client.soulmate(.post, "/v1/soulmate/messages/ack", token: bea.token, json: #"{"ids":["\#(first.id)"]}"#)
            // Bea reads the rest: the server handed over only what her phone can open.
            let key = try SoulMateFixtures.chatKey(bea, ada)
            let opened = try await client.inbox(bea).map { try key.open($0["ciphertext"] as? String ?? "").value }
            #expect(opened.sorted() == [markers[2], markers[4], "💞", ""].sorted())

            let rows = try await Self.everyRow(of: application.database, backend: backend)
            // The scan reads the tables it should: it finds what is stored in the clear.
            #expect(rows.contains { $0.table == "soulmate_identity_keys" && $0.text.contains(ada.publicKey) })
            #expect(rows.contains { $0.table == "kindred_users" && $0.text.contains("Lovelace") })
            #expect(rows.contains { $0.table == "soulmate_envelopes" })
            for marker in markers + ["PLAINTEXT-MARKER", "💞"] {
                let hits = rows.filter { $0.text.contains(marker) }.map(\.table)
                #expect(hits.isEmpty, "\(marker) is stored in the clear in \(hits)")
            }
        }
    }
}
