import GRDB

/// The local store's migrations. Named, applied in order, never edited once shipped; a change is a
/// new migration. Literal SQL so the schema reads exactly as docs/soulmate-device.md shows it.
enum LocalMessageSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // The seed's table and indexes, column for column (seed 003, "Local veritabanı ayrıntısı").
        // payload_value holds the AES-256-GCM-sealed value (LocalPayloadCipher).
        migrator.registerMigration("v1_local_messages") { db in
            try db.execute(sql: """
                CREATE TABLE local_messages (
                    id TEXT PRIMARY KEY NOT NULL,
                    chat_id TEXT NOT NULL,
                    sender_id TEXT NOT NULL,
                    recipient_id TEXT NOT NULL,
                    sent_at INTEGER NOT NULL,
                    payload_type TEXT NOT NULL
                        CHECK (payload_type IN ('text', 'emoji', 'gif', 'secret', 'heartbeat', 'undecryptable')),
                    payload_value BLOB NOT NULL,
                    is_secret INTEGER NOT NULL CHECK (is_secret IN (0, 1)),
                    direction TEXT NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
                    upload_state TEXT NOT NULL CHECK (upload_state IN ('pendingUpload', 'uploaded', 'failed')),
                    created_at INTEGER NOT NULL
                );
                CREATE INDEX local_messages_chat_sent ON local_messages (chat_id, sent_at DESC);
                CREATE INDEX local_messages_chat_id ON local_messages (chat_id, id);
                CREATE INDEX local_messages_upload ON local_messages (upload_state, created_at);
                """)
        }
        // What the seed does not have, beside its table: failure reasons and retry counts, the
        // opened state of secret messages, and the key check.
        migrator.registerMigration("v1_local_side_tables") { db in
            try db.execute(sql: """
                CREATE TABLE local_message_failures (
                    message_id TEXT PRIMARY KEY NOT NULL REFERENCES local_messages (id) ON DELETE CASCADE,
                    reason TEXT,
                    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                    retryable INTEGER NOT NULL DEFAULT 1 CHECK (retryable IN (0, 1)),
                    updated_at INTEGER NOT NULL
                );
                CREATE TABLE local_message_opened (
                    message_id TEXT PRIMARY KEY NOT NULL REFERENCES local_messages (id) ON DELETE CASCADE,
                    opened_at INTEGER NOT NULL
                );
                CREATE TABLE local_store_meta (
                    name TEXT PRIMARY KEY NOT NULL,
                    value BLOB NOT NULL
                );
                """)
        }
        return migrator
    }
}
