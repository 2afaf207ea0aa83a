import GRDB

/// The store's migrations: named, applied in order, never edited once shipped (a change is a new
/// migration); literal SQL so the schema reads as docs/streaksync-device.md shows it. Instants are
/// ISO 8601 text in UTC with milliseconds (`StoredDate`), local days `yyyy-MM-dd`.
enum StreakStoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // One row per result, keyed by its deterministic id. `share_key` (game:puzzle:variant, NULL
        // for a share without a puzzle number) keeps one row per puzzle: the same share pasted on a
        // later day is a duplicate, not a new played day.
        migrator.registerMigration("v1_results") { db in
            try db.execute(sql: """
                CREATE TABLE results (
                    id TEXT PRIMARY KEY NOT NULL,
                    game_id TEXT NOT NULL,
                    puzzle INTEGER,
                    variant TEXT,
                    share_key TEXT UNIQUE,
                    score INTEGER NOT NULL,
                    max_score INTEGER NOT NULL,
                    completed INTEGER NOT NULL CHECK (completed IN (0, 1)),
                    details TEXT NOT NULL,
                    local_day TEXT NOT NULL CHECK (length(local_day) = 10),
                    minute_of_day INTEGER NOT NULL CHECK (minute_of_day BETWEEN 0 AND 1439),
                    utc_offset_seconds INTEGER NOT NULL,
                    time_zone TEXT NOT NULL,
                    recorded_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE INDEX results_game_day ON results (game_id, local_day, recorded_at);
                CREATE INDEX results_day ON results (local_day, recorded_at);
                """)
        }
        // One row per achievement category (`AchievementProgress`), and every tier ever queued
        // for a celebration (each at most once).
        migrator.registerMigration("v1_achievements") { db in
            try db.execute(sql: """
                CREATE TABLE achievements (
                    category TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL CHECK (value >= 0),
                    unlocks TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE celebrations (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    achievement_id TEXT NOT NULL UNIQUE,
                    category TEXT NOT NULL,
                    tier INTEGER NOT NULL CHECK (tier BETWEEN 1 AND 5),
                    unlocked_at TEXT NOT NULL,
                    celebrated_at TEXT
                );
                """)
        }
        // Settings (JSON values by name) and the sync's own state (cursors).
        migrator.registerMigration("v1_settings") { db in
            try db.execute(sql: """
                CREATE TABLE settings (
                    name TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE TABLE sync_state (
                    name TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """)
        }
        // The offline queue: what waits for the server, drained in `seq` order. One row per record
        // (a record changed twice before a sync is uploaded once, as it then stands).
        migrator.registerMigration("v1_pending_uploads") { db in
            try db.execute(sql: """
                CREATE TABLE pending_uploads (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL CHECK (kind IN ('result', 'achievement', 'score')),
                    record_id TEXT NOT NULL,
                    enqueued_at TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                    last_error TEXT,
                    UNIQUE (kind, record_id)
                );
                """)
        }
        // Guest mode (`StreakStore+Guest.swift`): one row while a guest plays. The host's rows are
        // kept meanwhile in `guest_host_<table>` copies made at run time (so a later column is
        // copied too) and put back when the guest leaves.
        migrator.registerMigration("v2_guest_mode") { db in
            try db.execute(sql: """
                CREATE TABLE guest_session (
                    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                    started_at TEXT NOT NULL
                );
                """)
        }
        // The share-extension inbox (`ShareInbox`): one receipt per inbox file ever taken, written
        // in the transaction that records its result, so a file is added exactly once.
        migrator.registerMigration("v2_share_inbox") { db in
            try db.execute(sql: """
                CREATE TABLE inbox_receipts (
                    file TEXT PRIMARY KEY NOT NULL,
                    outcome TEXT NOT NULL CHECK (outcome IN ('added', 'duplicate', 'rejected')),
                    result_id TEXT,
                    received_at TEXT NOT NULL
                );
                """)
        }
        return migrator
    }
}
