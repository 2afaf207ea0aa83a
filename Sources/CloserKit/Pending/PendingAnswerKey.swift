import GRDB

/// One sealed answer of this device, from the moment it is sealed until it is revealed: the
/// strings uploaded to the server and the one-time key (sealed under the store's key).
///
/// Written **before** the upload, so a crash at any point resumes: a `sealed` row is uploaded
/// again (the same strings), an `uploaded` row releases its key, a `released` row only reads.
public struct PendingAnswerKey: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    /// The table's name (migration `v1_pending_answer_key`).
    public static let databaseTableName = "pending_answer_key"

    /// How far the answer has gone.
    public enum Stage: String, Codable, Sendable, DatabaseValueConvertible {
        /// Sealed and stored; not yet (known to be) on the server.
        case sealed
        /// The server holds the answer.
        case uploaded
        /// The one-time key was released to the partner's devices.
        case released
    }

    /// The couple.
    public var coupleId: String
    /// The date key of the daily question (`YYYY-MM-DD`) the answer belongs to, or
    /// `thread:<threadId>` for a thread message (`PendingAnswerKey.threadKey`).
    public var dateKey: String
    /// The question answered (part of the sealing context; for a thread message the thread's
    /// context `thread:<threadId>:<questionId>`, `CloserThreadView.context`).
    public var questionId: String
    /// The one-time key, AES-256-GCM-sealed under the store's key (`IV ‖ ciphertext ‖ tag`).
    public var sealedKey: [UInt8]
    /// `sealed:v1:` payload as uploaded.
    public var payload: String
    /// `sha256:` commitment as uploaded.
    public var commitment: String
    /// `enc:v1:` commitment seal as uploaded.
    public var commitmentSeal: String
    /// How far the answer has gone.
    public var stage: Stage
    /// When the row was written (ms since 1970).
    public var createdAt: Int64
    /// When the row last changed (ms since 1970).
    public var updatedAt: Int64

    /// The columns, for queries.
    public enum Columns {
        /// `coupleId`.
        public static let coupleId = Column(CodingKeys.coupleId)
        /// `dateKey`.
        public static let dateKey = Column(CodingKeys.dateKey)
        /// `stage`.
        public static let stage = Column(CodingKeys.stage)
        /// `updatedAt`.
        public static let updatedAt = Column(CodingKeys.updatedAt)
    }
}

extension PendingAnswerKey {
    /// The `dateKey` of a thread message's row.
    public static func threadKey(_ threadId: String) -> String {
        "thread:" + threadId
    }

    /// The thread of a thread message's row; `nil` for a daily answer.
    public var threadId: String? {
        dateKey.hasPrefix("thread:") ? String(dateKey.dropFirst("thread:".count)) : nil
    }
}
