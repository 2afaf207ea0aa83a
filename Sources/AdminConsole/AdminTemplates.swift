import KindredServerCore
import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The console's mustache templates and style sheet, bundled as resources of this module
/// (`Admin/Templates`). Every `{{value}}` is HTML-escaped; the templates use no triple mustaches.
struct AdminTemplates: Sendable {
    /// Why the templates could not be loaded.
    enum LoadError: Error, CustomStringConvertible {
        /// The resource folder is missing from the module bundle (a broken install).
        case missingResources
        /// A template does not parse.
        case invalidTemplate(String)

        /// A one-line description.
        var description: String {
            switch self {
            case .missingResources: "the admin console's templates are missing from the KindredServer resource bundle"
            case .invalidTemplate(let why): "an admin console template does not parse: \(why)"
            }
        }
    }

    /// The templates by name (file name without `.mustache`); `head` and `foot` are partials.
    let library: MustacheLibrary
    /// `admin.css`.
    let stylesheet: ByteBuffer
    /// `admin.js`: shows `<time>` values in the browser's time zone.
    let script: ByteBuffer

    /// Loads the bundled templates.
    /// - Throws: `LoadError`.
    static func load() async throws -> AdminTemplates {
        guard let folder = Bundle.module.url(forResource: "Templates", withExtension: nil),
            let css = try? Data(contentsOf: folder.appendingPathComponent("admin.css")),
            let js = try? Data(contentsOf: folder.appendingPathComponent("admin.js"))
        else { throw LoadError.missingResources }
        let library: MustacheLibrary
        do {
            library = try await MustacheLibrary(directory: folder.path)
        } catch {
            throw LoadError.invalidTemplate("\(error)")
        }
        for name in [
            "head", "foot", "login", "message", "dead_letters", "subscriptions", "subscription", "backfill", "overview",
            "users", "user", "jobs", "queues", "audit", "operators", "spark", "push", "realtime",
        ]
        where library.getTemplate(named: name) == nil {
            throw LoadError.invalidTemplate("\(name).mustache is missing")
        }
        return AdminTemplates(library: library, stylesheet: ByteBuffer(bytes: Array(css)), script: ByteBuffer(bytes: Array(js)))
    }

    /// Renders template `name` with `view` as an HTML response.
    func page(_ name: String, _ view: Any, status: HTTPResponse.Status = .ok) -> Response {
        let html = library.render(view, withTemplate: name) ?? ""
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }
}
