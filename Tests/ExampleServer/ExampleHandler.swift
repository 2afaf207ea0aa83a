import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The example contract's operations.
final class ExampleHandler: APIProtocol, Sendable {
    let environment: DomainEnvironment
    let authenticator: Authenticator

    init(environment: DomainEnvironment, authenticator: Authenticator) {
        self.environment = environment
        self.authenticator = authenticator
    }

    func createExampleNote(_ input: Operations.CreateExampleNote.Input) async throws -> Operations.CreateExampleNote.Output {
        let user = try await authenticator.user()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let text = body.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= 200 else {
            throw KindredError.refused(status: 422, code: "invalid_note", message: "a note is 1 to 200 characters")
        }
        let id = UUID().uuidString.lowercased()
        try await ExampleNotes.insert(
            id: id, userID: user.id, text: text, at: environment.clock.now().millisecondsSince1970,
            on: environment.database
        )
        return .created(.init(body: .json(.init(id: id, text: text))))
    }

    func listExampleNotes(_ input: Operations.ListExampleNotes.Input) async throws -> Operations.ListExampleNotes.Output {
        let user = try await authenticator.user()
        let notes = try await ExampleNotes.list(userID: user.id, on: environment.database)
        return .ok(.init(body: .json(.init(notes: notes.map { .init(id: $0.id, text: $0.text) }))))
    }
}

/// The example domain's statements, in one place.
enum ExampleNotes {
    static func insert(id: String, userID: String, text: String, at now: Int64, on database: Database) async throws {
        try await database.sql.insert(into: "example_notes").columns("id", "user_id", "text", "created_at")
            .values(SQLBind(id), SQLBind(userID), SQLBind(text), SQLBind(now)).run()
    }

    static func list(userID: String, on database: Database) async throws -> [(id: String, text: String)] {
        try await database.sql.select().columns("id", "text").from("example_notes").where("user_id", .equal, userID)
            .orderBy("created_at").orderBy("id").all()
            .map { (try $0.decode(column: "id", as: String.self), try $0.decode(column: "text", as: String.self)) }
    }

    static func pruneOlderThan(_ cutoff: Int64, limit: Int, on database: Database) async throws -> Int {
        let ids = try await database.sql.select().column("id").from("example_notes").where("created_at", .lessThan, cutoff)
            .limit(limit).all().map { try $0.decode(column: "id", as: String.self) }
        guard !ids.isEmpty else { return 0 }
        try await database.sql.delete(from: "example_notes").where("id", .in, ids).run()
        return ids.count
    }
}
