import Hummingbird
import KindredStore

/// The page at `/`: what this server is (version, database, apps) and where to go next (the
/// operators' console, the contracts, the docs), for whoever opens the server in a browser after
/// `swift run kindred serve`. Plain HTML, no script; it names no secret and no account.
struct HomePage: Sendable {
    /// Kindred's version, as the contracts state it.
    static let version = "0.1.0"

    let database: String
    let apps: [AppConfiguration]
    let contracts: [String]

    /// Registers `GET /`.
    func register(on router: Router<KindredRequestContext>) {
        let body = ByteBuffer(string: html)
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: body)
            )
        }
    }

    /// The page.
    var html: String {
        let appItems = apps.map { app in
            "<li><b>\(escape(app.displayName))</b> <code>\(escape(app.id.rawValue))</code>\(app.enabled ? "" : " (disabled)")</li>"
        }.joined(separator: "\n")
        let contractItems = contracts.map { name in
            "<li><a href=\"/openapi/\(escape(name)).yaml\"><code>/openapi/\(escape(name)).yaml</code></a></li>"
        }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Kindred</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#222}
            code{background:#f3f3f3;padding:0 .25rem;border-radius:3px}h1{margin-bottom:0}.muted{color:#666}</style>
            </head><body>
            <h1>Kindred</h1>
            <p class="muted">version \(escape(Self.version)) · database <code>\(escape(database))</code></p>
            <h2>Apps</h2>
            <p>Every app route names its app in the <code>X-Kindred-App</code> header.</p>
            <ul>
            \(appItems)
            </ul>
            <h2>Operators</h2>
            <p><a href="/admin">The admin console</a>. Its first operator is made on this machine with
            <code>kindred admin create --email you@example.com --password-stdin</code> (or with the password in <code>KINDRED_PASSWORD</code>).</p>
            <h2>Contracts</h2>
            <ul>
            <li><a href="/openapi.yaml"><code>/openapi.yaml</code></a>: every contract merged</li>
            \(contractItems)
            </ul>
            <h2>Health</h2>
            <ul><li><a href="/health"><code>/health</code></a></li><li><a href="/ready"><code>/ready</code></a></li>
            <li><a href="/metrics"><code>/metrics</code></a></li></ul>
            <h2>Docs</h2>
            <p>In the repository: <code>README.md</code>, <code>docs/architecture.md</code> (the map),
            <code>docs/server.md</code>, <code>docs/accounts.md</code>, <code>docs/platform.md</code>,
            <code>docs/notifications.md</code>, <code>docs/closer.md</code>, <code>docs/billing.md</code>,
            <code>docs/admin.md</code>, <code>docs/wire-formats.md</code>, <code>docs/benchmarks.md</code>.</p>
            </body></html>

            """
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
