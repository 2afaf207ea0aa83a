import GRDB

/// vault.db's migrations: named, applied in order, never edited once shipped (a change is a new
/// migration). Literal SQL, so the schema reads as the seed's section 4.2 does.
enum VaultSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // The seed's three tables, column for column, with its comments turned into constraints.
        // vault_items.original_id holds a keyed hash of the original id and metadata a sealed
        // value (VaultCiphers); file_path and thumbnail_path are relative to the vault folder.
        migrator.registerMigration("v1_vault_tables") { db in
            try db.execute(sql: """
                CREATE TABLE vault_items (
                    id TEXT PRIMARY KEY NOT NULL,
                    original_id TEXT NOT NULL,
                    type TEXT NOT NULL CHECK (type IN ('photo', 'video', 'calendar', 'message')),
                    file_path TEXT,
                    thumbnail_path TEXT,
                    metadata TEXT,
                    match_type TEXT NOT NULL CHECK (match_type IN ('face', 'date_range', 'contact', 'manual')),
                    created_at TEXT NOT NULL,
                    source TEXT NOT NULL CHECK (source IN ('camera_roll', 'icloud', 'calendar', 'messages'))
                );
                CREATE TABLE cooling_off (
                    id TEXT PRIMARY KEY NOT NULL,
                    vault_item_id TEXT REFERENCES vault_items(id) ON DELETE SET NULL,
                    delete_after TEXT NOT NULL,
                    reminded INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
                    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'deleted', 'restored'))
                );
                CREATE TABLE scan_history (
                    id TEXT PRIMARY KEY NOT NULL,
                    started_at TEXT NOT NULL,
                    completed_at TEXT,
                    total_scanned INTEGER,
                    total_matched INTEGER,
                    total_vaulted INTEGER,
                    total_deleted INTEGER
                );
                """)
        }
        // Beyond the seed: when an entry was made and settled, which reminder it shares, at most
        // one pending entry per item, and the indexes the check and the look-ups use.
        migrator.registerMigration("v1_vault_additions") { db in
            try db.execute(sql: """
                ALTER TABLE cooling_off ADD COLUMN created_at TEXT;
                ALTER TABLE cooling_off ADD COLUMN resolved_at TEXT;
                ALTER TABLE cooling_off ADD COLUMN reminder_id TEXT;
                CREATE UNIQUE INDEX cooling_off_one_pending ON cooling_off (vault_item_id) WHERE status = 'pending';
                CREATE INDEX cooling_off_due ON cooling_off (status, delete_after);
                CREATE INDEX cooling_off_reminder ON cooling_off (reminder_id);
                CREATE INDEX vault_items_original ON vault_items (original_id);
                CREATE INDEX vault_items_created ON vault_items (created_at, id);
                CREATE INDEX scan_history_started ON scan_history (started_at);
                """)
        }
        return migrator
    }
}
