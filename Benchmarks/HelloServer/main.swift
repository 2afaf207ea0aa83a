import Hummingbird

// The baseline of scripts/bench-server: a bare Hummingbird 2 server answering GET / with a
// short text body, with no middleware, database or logging. Kindred's routes are measured
// against it on the same machine in the same run.
let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) ?? 8090 : 8090
let router = Router()
router.get("/") { _, _ in "Hello, world!" }
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
