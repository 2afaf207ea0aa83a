import Foundation

/// The device's copy of Closer's question catalog (the seed's "local-first questions"): every
/// question's text by id, the server's catalog `version` it was downloaded at, and the couple's
/// current assignment, so today's question shows without the network once it is assigned.
public struct LocalQuestionCatalog: Codable, Sendable, Equatable {
    /// One question as the device keeps it.
    public struct Question: Codable, Sendable, Equatable {
        /// The question's id.
        public var id: String
        /// Its pack's id.
        public var packId: String
        /// Its category's id.
        public var categoryId: String
        /// The text shown to both partners.
        public var text: String

        /// A question from its parts.
        public init(id: String, packId: String, categoryId: String, text: String) {
            self.id = id
            self.packId = packId
            self.categoryId = categoryId
            self.text = text
        }
    }

    /// The couple's current daily assignment, as the server last answered it.
    public struct Assignment: Codable, Sendable, Equatable {
        /// The couple's id.
        public var coupleId: String
        /// The date key (`YYYY-MM-DD`).
        public var date: String
        /// The assigned question's id (its text comes from `questions`).
        public var questionId: String
        /// When the next assignment replaces it (after this, it is no longer today's).
        public var expiresAt: Date
    }

    /// The server's catalog version this copy was downloaded at (`nil` before the first download).
    public var version: String?
    /// The questions by id.
    public var questions: [String: Question]
    /// The current assignment, once the device has seen one.
    public var today: Assignment?

    /// An empty copy (nothing downloaded, nothing assigned).
    public init(version: String? = nil, questions: [String: Question] = [:], today: Assignment? = nil) {
        self.version = version
        self.questions = questions
        self.today = today
    }
}
