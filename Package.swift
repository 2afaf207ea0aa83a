// swift-tools-version: 6.2
import PackageDescription

/// Compiler settings shared by every target (STYLE.md rule 10): Swift 6 language mode,
/// strict concurrency (the Swift 6 default) and `any` spelled out for existentials.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Kindred",
    // macOS 15: swift-configuration (the server's settings) needs it; the server ships on Linux.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "KindredCrypto", targets: ["KindredCrypto"]),
        .library(name: "KindredAPI", targets: ["KindredAPI"]),
        .library(name: "KindredStore", targets: ["KindredStore"]),
        .library(name: "KindredServer", targets: ["KindredServer"]),
        .library(name: "KindredClient", targets: ["KindredClient"]),
        .library(name: "CloserKit", targets: ["CloserKit"]),
        .executable(name: "kindred", targets: ["kindred"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(
            url: "https://github.com/apple/swift-configuration.git", from: "1.4.0",
            traits: [.defaults, "YAML"]
        ),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // CloserKit's on-device store of pending one-time answer keys (needs Debian's libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        // Every end-to-end wire format of the five apps. swift-crypto only, no I/O.
        .target(
            name: "KindredCrypto",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        // The HTTP contract: openapi.yaml, and the types, server protocol and client generated from it.
        .target(
            name: "KindredAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            // The document is also served as-is by `GET /openapi.yaml` (OpenAPIDocument.load()).
            resources: [.copy("openapi.yaml")],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The server's database layer on SQLKit: SQLite (embedded default) or PostgreSQL.
        .target(
            name: "KindredStore",
            dependencies: [
                "CKindredSQLite",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // One C call KindredStore needs from SQLiteNIO's bundled SQLite (a variadic function).
        .target(name: "CKindredSQLite"),
        // The Hummingbird 2 application: router, middleware, endpoints.
        .target(
            name: "KindredServer",
            dependencies: [
                "KindredAPI",
                "KindredCrypto",
                "KindredStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // Closer's bundled question catalog, loaded at start (CloserCatalog.bundledDocument()),
            // and the admin console's mustache templates and style sheet.
            resources: [.copy("Closer/Catalog/closer-catalog.json"), .copy("Admin/Templates")],
            swiftSettings: swiftSettings
        ),
        // The device side of the HTTP contract: the generated client and a session that keeps,
        // refreshes and retries with the account's tokens.
        .target(
            name: "KindredClient",
            dependencies: [
                "KindredAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            swiftSettings: swiftSettings
        ),
        // Closer on the device: secure storage, device and couple keys, pending answer keys,
        // invites, sealed answers and the reveal state machine, over the generated client.
        .target(
            name: "CloserKit",
            dependencies: [
                "KindredCrypto",
                "KindredClient",
                "KindredAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "kindred",
            dependencies: [
                "CloserKit",
                "KindredClient",
                "KindredCrypto",
                "KindredStore",
                "KindredServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Helpers the test targets share: running the built `kindred` and the Python peers,
        // temporary directories, pipe draining.
        .target(
            name: "KindredTestSupport",
            dependencies: [
                "KindredStore",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/KindredTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KindredCryptoTests",
            dependencies: ["KindredCrypto", "KindredTestSupport"],
            // Python peers the interop tests run from their source location (#filePath).
            exclude: [
                "Interop/tink_interop.py", "Interop/make_tink_vectors.py",
                "Interop/streaming_aead_interop.py", "Interop/make_streaming_vectors.py",
                "Interop/argon2_interop.py", "Interop/make_argon2_vectors.py",
                "Interop/closer_reference.py",
            ],
            resources: [.copy("Vectors")],
            swiftSettings: swiftSettings
        ),
        // Release-build benchmarks with same-run baselines (scripts/bench-crypto).
        .executableTarget(
            name: "kindred-crypto-bench",
            dependencies: ["KindredCrypto", .product(name: "Crypto", package: "swift-crypto")],
            path: "Benchmarks/CryptoBenchmarks",
            swiftSettings: swiftSettings
        ),
        // scripts/bench-push: the notification pipeline against a local APNs fake.
        .executableTarget(
            name: "kindred-push-bench",
            dependencies: [
                "KindredServer", "KindredStore", "KindredTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/PushBench",
            swiftSettings: swiftSettings
        ),
        // scripts/bench-closer-assign: Closer's daily-assignment job over 100,000 couples.
        .executableTarget(
            name: "kindred-closer-assign-bench",
            dependencies: [
                "KindredServer", "KindredStore",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/CloserAssignBench",
            swiftSettings: swiftSettings
        ),
        // The bare Hummingbird server scripts/bench-server measures Kindred's routes against.
        .executableTarget(
            name: "kindred-hello-bench",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Benchmarks/HelloServer",
            swiftSettings: swiftSettings
        ),
        // Realtime fan-out against a bare hummingbird-websocket broadcast (scripts/bench-realtime).
        .executableTarget(
            name: "kindred-realtime-bench",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "KindredServer", "KindredStore", "KindredAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Benchmarks/RealtimeBench",
            swiftSettings: swiftSettings
        ),
        // scripts/bench-closer: full answer → release → reveal cycles through CloserKit against `kindred serve`.
        .executableTarget(
            name: "kindred-closer-bench",
            dependencies: ["CloserKit", "KindredClient", "KindredCrypto"],
            path: "Benchmarks/CloserBench",
            swiftSettings: swiftSettings
        ),
        // One conformance suite that runs against SQLite and PostgreSQL.
        .testTarget(
            name: "KindredStoreTests",
            dependencies: ["KindredStore", "KindredTestSupport", .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KindredServerTests",
            dependencies: [
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                "KindredTestSupport",
                "KindredServer",
                "KindredStore",
                "KindredCrypto",
                "kindred",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // Runs the platform's scheduler and queue worker as services, as the server does.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Identity-token fixtures: RSA keys to sign test tokens, HMAC for a wrong-algorithm
                // token, and the HTTP client a verifier fetches its key set with.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            // The admin console's browser test, run by AdminConsoleBrowserLiveTests from its source location.
            exclude: ["Live/admin_console_browser.py"],
            swiftSettings: swiftSettings
        ),
        // The session against a scripted transport, and against a live `kindred serve`.
        .testTarget(
            name: "KindredClientTests",
            dependencies: [
                "KindredClient",
                "KindredTestSupport",
                "kindred",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // CloserKit's pieces on their own, and two (or three) devices against a live `kindred serve`.
        .testTarget(
            name: "CloserKitTests",
            dependencies: [
                "CloserKit",
                "KindredCrypto",
                "KindredClient",
                "KindredStore",
                "KindredTestSupport",
                "kindred",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // Drives the built `kindred` executable as a subprocess, end to end.
        .testTarget(
            name: "KindredCLITests",
            dependencies: ["kindred", "KindredTestSupport"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
