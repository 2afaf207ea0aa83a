import KindredStore
import SQLKit

/// The realtime tables: sequence counters, retained events, pruning.
struct RealtimeEventStore: Sendable {
    let database: Database

    /// Hands out the channel's next sequence number inside the caller's transaction.
    ///
    /// The upsert takes the channel row's write lock until the transaction ends, so publishers
    /// of one channel commit in sequence order and a rolled-back number is handed out again.
    func nextSequence(_ channel: String, on sql: any SQLDatabase) async throws -> Int64 {
        let row = try await sql.raw("""
            INSERT INTO kindred_realtime_channels (channel, last_seq) VALUES (\(bind: channel), 1)
            ON CONFLICT (channel) DO UPDATE SET last_seq = kindred_realtime_channels.last_seq + 1
            RETURNING last_seq
            """).first()
        guard let row else { throw KindredError.internal }
        return try row.decode(column: "last_seq", as: Int64.self)
    }

    /// PostgreSQL: numbers, stores and announces an event in one statement (the three steps of
    /// `nextSequence`, `insert` and `pg_notify` as one round trip; a publishing transaction
    /// spends most of its time on round trips). Same locking as `nextSequence`; the NOTIFY
    /// payload is `RealtimeNotice.event`'s (`e <seq> <channel>`), sent only at commit.
    /// - Returns: the event's sequence number.
    func publishOnPostgres(
        channel: String, type: String, data: String, ownerUserID: String?, createdAt: Int64,
        notifyChannel: String, on sql: any SQLDatabase
    ) async throws -> Int64 {
        let row = try await sql.raw("""
            WITH numbered AS (
                INSERT INTO kindred_realtime_channels (channel, last_seq) VALUES (\(bind: channel)::text, 1)
                ON CONFLICT (channel) DO UPDATE SET last_seq = kindred_realtime_channels.last_seq + 1
                RETURNING last_seq
            ), stored AS (
                INSERT INTO kindred_realtime_events (channel, seq, type, data, user_id, created_at)
                SELECT \(bind: channel)::text, last_seq, \(bind: type), \(bind: data), \(bind: ownerUserID), \(bind: createdAt)
                FROM numbered
                RETURNING seq
            )
            SELECT seq AS last_seq, pg_notify(\(bind: notifyChannel), 'e ' || seq::text || ' ' || \(bind: channel)::text)
            FROM stored
            """).first()
        guard let row else { throw KindredError.internal }
        return try row.decode(column: "last_seq", as: Int64.self)
    }

    /// PostgreSQL: `publishOnPostgres` for several events of distinct channels in one statement
    /// (channels locked in the order given).
    /// - Returns: each channel's new sequence number.
    func publishManyOnPostgres(
        _ events: [(channel: String, type: String, data: String, ownerUserID: String?)], createdAt: Int64,
        notifyChannel: String, on sql: any SQLDatabase
    ) async throws -> [String: Int64] {
        let rows = try await sql.raw("""
            WITH input AS (
                SELECT * FROM unnest(\(bind: events.map(\.channel)), \(bind: events.map(\.type)), \(bind: events.map(\.data)),
                    \(bind: events.map { $0.ownerUserID ?? "" })) WITH ORDINALITY AS t(channel, type, data, owner, ord)
            ), numbered AS (
                INSERT INTO kindred_realtime_channels (channel, last_seq) SELECT channel, 1 FROM input ORDER BY ord
                ON CONFLICT (channel) DO UPDATE SET last_seq = kindred_realtime_channels.last_seq + 1
                RETURNING channel, last_seq
            ), stored AS (
                INSERT INTO kindred_realtime_events (channel, seq, type, data, user_id, created_at)
                SELECT input.channel, numbered.last_seq, input.type, input.data, NULLIF(input.owner, ''), \(bind: createdAt)
                FROM input JOIN numbered ON numbered.channel = input.channel
                RETURNING channel, seq
            )
            SELECT channel, seq AS last_seq, pg_notify(\(bind: notifyChannel), 'e ' || seq::text || ' ' || channel) FROM stored
            """).all()
        var sequences: [String: Int64] = [:]
        for row in rows {
            sequences[try row.decode(column: "channel", as: String.self)] = try row.decode(column: "last_seq", as: Int64.self)
        }
        guard sequences.count == events.count else { throw KindredError.internal }
        return sequences
    }

    /// Stores an event (inside the transaction that numbered it).
    func insert(_ event: RealtimeEvent, ownerUserID: String?, on sql: any SQLDatabase) async throws {
        try await sql.run(Self.insertEvent.binding(event.channel, event.seq, event.type, event.data, ownerUserID, event.createdAt))
    }

    /// Written once (`StatementText`): every published event runs it on SQLite's writer.
    private static let insertEvent = StatementText(
        "INSERT INTO kindred_realtime_events (channel, seq, type, data, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?)"
    )

    /// The channel's last committed sequence number (0 when it never had an event).
    func lastSequence(_ channel: String) async throws -> Int64 {
        let row = try await database.sql.select().column("last_seq").from("kindred_realtime_channels")
            .where("channel", .equal, channel).first()
        return try row?.decode(column: "last_seq", as: Int64.self) ?? 0
    }

    /// The oldest retained sequence number of the channel, nil when none is retained.
    func oldestRetained(_ channel: String) async throws -> Int64? {
        let row = try await database.sql.select().column(SQLFunction("MIN", args: SQLIdentifier("seq")), as: "oldest")
            .from("kindred_realtime_events").where("channel", .equal, channel).first()
        return try row?.decode(column: "oldest", as: Int64?.self)
    }

    /// Committed events of the channel after `seq`, in order, at most `limit`.
    func events(_ channel: String, after seq: Int64, limit: Int) async throws -> [RealtimeEvent] {
        try await database.sql.select().columns("seq", "type", "data", "created_at").from("kindred_realtime_events")
            .where("channel", .equal, channel).where("seq", .greaterThan, seq)
            .orderBy("seq").limit(limit).all()
            .map { row in
                RealtimeEvent(
                    channel: channel, seq: try row.decode(column: "seq", as: Int64.self),
                    type: try row.decode(column: "type", as: String.self),
                    data: try row.decode(column: "data", as: String.self),
                    createdAt: try row.decode(column: "created_at", as: Int64.self)
                )
            }
    }

    /// Deletes events older than `olderThan` (ms since 1970) and those beyond the newest
    /// `keepPerChannel` of their channel, in batches of `batchSize`, and tickets past their expiry.
    /// Channel counters are kept, so numbering never restarts.
    /// - Returns: the number of events deleted.
    func prune(olderThan: Int64, keepPerChannel: Int, now: Int64, batchSize: Int) async throws -> Int {
        var deleted = 0
        // Past the age limit.
        while true {
            let rows = try await database.sql.select().columns("channel", "seq").from("kindred_realtime_events")
                .where("created_at", .lessThan, olderThan).limit(batchSize).all()
            deleted += try await delete(rows)
            if rows.count < batchSize { break }
        }
        // Beyond the count limit of their channel.
        while true {
            let rows = try await database.sql.raw("""
                SELECT e.channel, e.seq FROM kindred_realtime_events e
                JOIN kindred_realtime_channels c ON c.channel = e.channel
                WHERE e.seq <= c.last_seq - \(bind: Int64(keepPerChannel))
                LIMIT \(bind: batchSize)
                """).all()
            deleted += try await delete(rows)
            if rows.count < batchSize { break }
        }
        try await database.sql.delete(from: "kindred_realtime_tickets").where("expires_at", .lessThanOrEqual, now).run()
        return deleted
    }

    /// Deletes the events named by (channel, seq) rows.
    private func delete(_ rows: [any SQLRow]) async throws -> Int {
        guard !rows.isEmpty else { return 0 }
        var byChannel: [String: [Int64]] = [:]
        for row in rows {
            byChannel[try row.decode(column: "channel", as: String.self), default: []]
                .append(try row.decode(column: "seq", as: Int64.self))
        }
        for (channel, seqs) in byChannel {
            try await database.sql.delete(from: "kindred_realtime_events")
                .where("channel", .equal, channel).where("seq", .in, seqs).run()
        }
        return rows.count
    }
}
