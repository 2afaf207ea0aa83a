// swift-tools-version: 6.2
import PackageDescription

/// Compiler settings shared by every target (STYLE.md rule 10): Swift 6 language mode,
/// strict concurrency (the Swift 6 default) and `any` spelled out for existentials.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// What every domain target stands on: the core, the store and the libraries its handlers use.
let domainDependencies: [Target.Dependency] = [
    "KindredServerCore",
    "KindredStore",
    "KindredCrypto",
    .product(name: "Hummingbird", package: "hummingbird"),
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
    .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "SQLKit", package: "sql-kit"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
]

/// The packages every server test target (and their support target) builds on.
let serverTestProducts: [Target.Dependency] = [
    .product(name: "SQLKit", package: "sql-kit"),
    .product(name: "Hummingbird", package: "hummingbird"),
    .product(name: "HummingbirdTesting", package: "hummingbird"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "Prometheus", package: "swift-prometheus"),
    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
]

let package = Package(
    name: "Kindred",
    // macOS 15: swift-configuration (the server's settings) needs it; the server ships on Linux.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "KindredCrypto", targets: ["KindredCrypto"]),
        .library(name: "KindredAPI", targets: ["KindredAPI"]),
        .library(name: "KindredStore", targets: ["KindredStore"]),
        .library(name: "CloserAPI", targets: ["CloserAPI"]),
        .library(name: "DeviceIntegrity", targets: ["DeviceIntegrity"]),
        .library(name: "KindredServerCore", targets: ["KindredServerCore"]),
        .library(name: "CloserServer", targets: ["CloserServer"]),
        .library(name: "BillingServer", targets: ["BillingServer"]),
        .library(name: "AdminConsole", targets: ["AdminConsole"]),
        .library(name: "KindredServer", targets: ["KindredServer"]),
        .library(name: "KindredClient", targets: ["KindredClient"]),
        .library(name: "CloserKit", targets: ["CloserKit"]),
        .library(name: "SoulMateAPI", targets: ["SoulMateAPI"]),
        .library(name: "SoulMateServer", targets: ["SoulMateServer"]),
        .library(name: "SoulMateKit", targets: ["SoulMateKit"]),
        .library(name: "PulseKit", targets: ["PulseKit"]),
        .library(name: "StreakKit", targets: ["StreakKit"]),
        .library(name: "StreakAPI", targets: ["StreakAPI"]),
        .library(name: "StreakServer", targets: ["StreakServer"]),
        .library(name: "EraserAPI", targets: ["EraserAPI"]),
        .library(name: "EraserServer", targets: ["EraserServer"]),
        .library(name: "EraserKit", targets: ["EraserKit"]),
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
        // Pinned exactly: KindredStore imports sqlite-nio's `VaporCSQLite` module (a target, not a
        // product) to call its bundled SQLite's `sqlite_nio_sqlite3_*` functions on the handles it
        // keeps (prepared statements, WAL checkpoints, connection flags), and CKindredSQLite
        // declares one of them (`sqlite_nio_sqlite3_db_config`) itself. Those names are sqlite-nio's
        // internals: a new version is taken only after re-checking them (docs/server.md).
        .package(url: "https://github.com/vapor/sqlite-nio.git", exact: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/async-kit.git", from: "1.22.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(
            url: "https://github.com/apple/swift-configuration.git", from: "1.4.0",
            traits: [.defaults, "YAML"]
        ),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The contracts' constraints (maxLength, pattern, …) are compiled at start from the YAML
        // the server serves (KindredServerCore/RequestValidation); swift-configuration's YAML
        // trait builds Yams already.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
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
            // The document is also served as-is by `GET /openapi/core.yaml` (OpenAPIDocument.load()).
            resources: [.copy("openapi.yaml")],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // Closer's contract: its own OpenAPI document, types, server protocol and client, so a YAML
        // edit regenerates only this module and the iOS app links only its app's contract.
        .target(
            name: "CloserAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
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
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncKit", package: "async-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Device integrity: Apple App Attest attestations and assertions, Google Play Integrity
        // verdict tokens; pure verification with the roots and keys as configuration, no I/O.
        .target(
            name: "DeviceIntegrity",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DeviceIntegrityTests",
            dependencies: [
                "DeviceIntegrity",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // One C call KindredStore needs from SQLiteNIO's bundled SQLite (a variadic function).
        .target(name: "CKindredSQLite"),
        // The platform every domain stands on: apps and configuration plumbing, middleware and
        // transport, the error envelope, accounts and tokens, jobs, the work queue, realtime,
        // notifications and push, the user-data registry, and `ServerDomain`, the protocol a
        // domain plugs in through. It never imports a domain (scripts/check-layering).
        .target(
            name: "KindredServerCore",
            dependencies: [
                "KindredAPI",
                "KindredCrypto",
                "KindredStore",
                // App Attest and Play Integrity verification behind the integrity routes.
                "DeviceIntegrity",
                // The contracts' constraints are compiled at start from the served YAML (RequestValidation/).
                .product(name: "Yams", package: "Yams"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Closer's server side: pairing, the catalog, daily questions, sealed answers, reveal, threads.
        .target(
            name: "CloserServer",
            dependencies: [
                "CloserAPI",
                // SHA-256 of game commitments (Games/GameCommitment).
                .product(name: "Crypto", package: "swift-crypto"),
            ] + domainDependencies,
            // Closer's bundled question catalog, loaded at start (CloserCatalog.bundledDocument()).
            resources: [
                .copy("Catalog/closer-catalog.json"), .copy("Catalog/closer-date-ideas.json"), .copy("Catalog/closer-games.json"),
                .copy("Catalog/closer-challenges.json"),
            ],
            swiftSettings: swiftSettings
        ),
        // SoulMate's contract: pair codes and requests, unpairing, the session lock, identity keys
        // and the transient relay of encrypted envelopes (docs/soulmate.md).
        .target(
            name: "SoulMateAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            resources: [.copy("openapi.yaml")],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // SoulMate's server side: consent-based pairing, the single-device lock, identity keys and a
        // relay that holds ciphertext only until the recipient acknowledges it.
        .target(
            name: "SoulMateServer",
            dependencies: ["SoulMateAPI"] + domainDependencies,
            swiftSettings: swiftSettings
        ),
        // StreakSync's contract: results and achievements sync, friend codes and friendships,
        // scores readable by friends only, leaderboards (docs/streaksync.md).
        .target(
            name: "StreakAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            resources: [.copy("openapi.yaml")],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // StreakSync's server side: sync, friends, scores with their readers, live leaderboards.
        .target(
            name: "StreakServer",
            // StreakKit: the game catalog (ids and ranking direction), one table for app and server.
            dependencies: ["StreakAPI", "StreakKit"] + domainDependencies,
            swiftSettings: swiftSettings
        ),
        // Ex-Eraser's contract: the tier and its limits, anonymous analytics (docs/exeraser.md).
        .target(
            name: "EraserAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            resources: [.copy("openapi.yaml")],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // Ex-Eraser's small server side: the plan from billing's tier, analytics not linked to anyone.
        .target(
            name: "EraserServer",
            dependencies: ["EraserAPI"] + domainDependencies,
            swiftSettings: swiftSettings
        ),
        // Billing: RevenueCat and Stripe webhooks into an append-only plan history, syncs, and the
        // core's `Entitlements` for every app. Its client routes are in the core contract.
        .target(
            name: "BillingServer",
            dependencies: [
                "KindredAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ] + domainDependencies,
            swiftSettings: swiftSettings
        ),
        // The operators' web console: server-rendered pages over the core and, through protocols,
        // the domains (billing's subscriptions).
        .target(
            name: "AdminConsole",
            dependencies: [
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
            ] + domainDependencies,
            // The console's mustache templates and style sheet.
            resources: [.copy("Templates")],
            swiftSettings: swiftSettings
        ),
        // The composition root: settings, `buildApplication`, the list of domains and the adapters
        // between them (billing as the `Entitlements` Closer consumes, billing's administration as
        // the console's subscription directory).
        .target(
            name: "KindredServer",
            dependencies: [
                "KindredServerCore",
                // The integrity settings (ServerSettings+Integrity) parse into its types.
                "DeviceIntegrity",
                "CloserServer",
                "SoulMateServer",
                "StreakServer",
                "EraserServer",
                "EraserAPI",
                "BillingServer",
                "AdminConsole",
                "KindredAPI",
                "CloserAPI",
                "KindredCrypto",
                "KindredStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings
        ),
        // The device side of the HTTP contract: the generated client and a session that keeps,
        // refreshes and retries with the account's tokens.
        .target(
            name: "KindredClient",
            dependencies: [
                "KindredAPI",
                // The shared secure store (SecureStore, FileSecureStore) every app kit keeps keys in.
                "KindredCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
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
                "CloserAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: swiftSettings
        ),
        // Pulse's device-side access check (and every app's premium gate): the seed's
        // latest-expiration rule over the server's record, syncs, realtime changes, fail closed.
        .target(
            name: "PulseKit",
            dependencies: [
                "KindredClient",
                "KindredAPI",
            ],
            swiftSettings: swiftSettings
        ),
        // SoulMate on the device: the local-first message store (encrypted at rest), the outbox,
        // envelopes, pairing, the session lock and the app's strings in Turkish and English.
        .target(
            name: "SoulMateKit",
            dependencies: [
                "KindredCrypto",
                "KindredClient",
                "KindredAPI",
                "SoulMateAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: swiftSettings
        ),
        // StreakSync on the device: the games and their share-text parsers, streaks, tiered
        // achievements, the smart reminder, analytics and charts (docs/streaksync-device.md).
        // NOTE for the network client: it lives in the separate target StreakClient below (path
        // Sources/StreakClient), so that StreakServer, which uses StreakKit's catalog, does not
        // link the device's HTTP client.
        .target(
            name: "StreakKit",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // StreakSync's device network side: the account, sync, friends and leaderboards over
        // KindredClient's session and the generated StreakAPI client.
        .target(
            name: "StreakClient",
            dependencies: [
                "StreakKit",
                "StreakAPI",
                "KindredClient",
                "KindredAPI",
                "KindredCrypto",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: swiftSettings
        ),
        // The system's image codecs (Debian's libjpeg-dev and libpng-dev), for EraserKit's
        // thumbnails; scripts/lib/deps.sh installs them.
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libjpeg-turbo behind setjmp/longjmp, so a bad JPEG is an error code, not an exit().
        .target(name: "CEraserImage", dependencies: ["CLibJPEG"]),
        // Ex-Eraser on the device: the photo library and calendar services (a folder and .ics files
        // on Linux), the scan engine, the encrypted Vault and the Cooling Off bin
        // (docs/exeraser-device.md).
        .target(
            name: "EraserKit",
            dependencies: [
                "KindredCrypto",
                "KindredClient",
                "CLibJPEG",
                "CLibPNG",
                "CEraserImage",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // The face worker (Python, dlib-bin): installed next to the `kindred` binary.
            resources: [.copy("Faces/Worker")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "kindred",
            dependencies: [
                "PulseKit",
                "EraserKit",
                "SoulMateKit",
                "SoulMateAPI",
                "SoulMateServer",
                "StreakServer",
                "EraserServer",
                "EraserAPI",
                "StreakKit",
                "StreakClient",
                "CloserKit",
                "CloserAPI",
                "KindredAPI",
                "KindredServerCore",
                "CloserServer",
                "BillingServer",
                "AdminConsole",
                "KindredClient",
                "KindredCrypto",
                "KindredStore",
                "KindredServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
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
                "KindredServer", "KindredServerCore", "CloserServer", "KindredStore", "KindredTestSupport",
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
                "KindredServer", "KindredServerCore", "CloserServer", "KindredStore",
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
                "KindredServer", "KindredServerCore", "CloserServer", "KindredStore", "KindredAPI",
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
            dependencies: [
                "CloserKit", "KindredClient", "KindredCrypto",
                // The timed phase's HTTP/1.1 driver (WireDriver.swift).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/CloserBench",
            swiftSettings: swiftSettings
        ),
        // The example domain of docs/architecture.md ("Adding a domain"): a migration, a route in its
        // own contract, a job and a user-data entry, in one folder; the server tests register it.
        .target(
            name: "ExampleServer",
            dependencies: [
                "KindredServerCore",
                "KindredStore",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Tests/ExampleServer",
            resources: [.copy("openapi.yaml")],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // One conformance suite that runs against SQLite and PostgreSQL.
        .testTarget(
            name: "KindredStoreTests",
            dependencies: ["KindredStore", "KindredTestSupport", .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AsyncKit", package: "async-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the server's test targets share: `TestApplication` (the server's router on a test
        // database), the accounts test client, policy callers, fixtures and the platform helpers.
        .target(
            name: "KindredServerTestSupport",
            dependencies: [
                "KindredTestSupport",
                "KindredServer",
                "KindredServerCore",
                "BillingServer",
                "CloserServer",
                "SoulMateServer",
                "StreakServer",
                "EraserServer",
                "EraserAPI",
                "AdminConsole",
                "KindredAPI",
                "KindredStore",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ] + serverTestProducts,
            path: "Tests/KindredServerTestSupport",
            swiftSettings: swiftSettings
        ),
        // The core: accounts, middleware, jobs, queue, realtime, notifications and the home page.
        .testTarget(
            name: "KindredServerCoreTests",
            dependencies: [
                // App Attest chains and Play Integrity tokens made in the integrity route tests.
                "DeviceIntegrity",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                "KindredServerTestSupport",
                "KindredTestSupport",
                "KindredServerCore",
                "KindredServer",
                "KindredAPI",
                "KindredStore",
                "KindredCrypto",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ] + serverTestProducts,
            swiftSettings: swiftSettings
        ),
        // Closer's server side, through the server's router.
        .testTarget(
            name: "CloserServerTests",
            dependencies: [
                "KindredServerTestSupport", "KindredTestSupport", "CloserServer", "KindredServerCore", "KindredServer",
                "CloserAPI", "KindredStore", "KindredCrypto",
            ] + serverTestProducts,
            swiftSettings: swiftSettings
        ),
        // SoulMate's server side, through the server's router.
        .testTarget(
            name: "SoulMateServerTests",
            dependencies: [
                "KindredServerTestSupport", "KindredTestSupport", "SoulMateServer", "KindredServerCore", "KindredServer",
                "SoulMateAPI", "KindredAPI", "KindredStore", "KindredCrypto",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ] + serverTestProducts,
            swiftSettings: swiftSettings
        ),
        // StreakSync's server side, through the server's router.
        .testTarget(
            name: "StreakServerTests",
            dependencies: [
                "KindredServerTestSupport", "KindredTestSupport", "StreakServer", "KindredServerCore", "KindredServer",
                "StreakAPI", "KindredAPI", "KindredStore",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ] + serverTestProducts,
            swiftSettings: swiftSettings
        ),
        // Ex-Eraser's server side, through the server's router.
        .testTarget(
            name: "EraserServerTests",
            dependencies: [
                "KindredServerTestSupport", "KindredTestSupport", "EraserServer", "KindredServerCore", "KindredServer",
                "EraserAPI", "KindredAPI", "KindredStore",
            ] + serverTestProducts,
            swiftSettings: swiftSettings
        ),
        // Billing: webhooks, the inbox, the ledger, syncs and entitlements.
        .testTarget(
            name: "BillingServerTests",
            dependencies: [
                "KindredServerTestSupport", "KindredTestSupport", "BillingServer", "KindredServerCore", "KindredServer",
                "KindredAPI", "KindredStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ] + serverTestProducts,
            swiftSettings: swiftSettings
        ),
        // The operators' console: login, sessions, pages and forms.
        .testTarget(
            name: "AdminConsoleTests",
            dependencies: [
                "KindredServerTestSupport", "KindredTestSupport", "AdminConsole", "KindredServerCore", "KindredServer",
                "KindredAPI", "KindredStore",
            ] + serverTestProducts,
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KindredServerTests",
            dependencies: [
                "DeviceIntegrity",
                .product(name: "X509", package: "swift-certificates"),
                "KindredServerTestSupport",
                "KindredServerCore",
                "CloserServer",
                "SoulMateServer",
                "StreakServer",
                "EraserServer",
                "EraserAPI",
                "BillingServer",
                "AdminConsole",
                "ExampleServer",
                "KindredAPI",
                "CloserAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Metrics", package: "swift-metrics"),
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
                "KindredCrypto",
                "KindredAPI",
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
        // PulseKit against a live `kindred serve` with a fake RevenueCat, and `kindred pulse`.
        .testTarget(
            name: "PulseKitTests",
            dependencies: [
                "PulseKit",
                "KindredClient",
                "KindredAPI",
                "KindredTestSupport",
                "kindred",
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        // CloserKit's pieces on their own, and two (or three) devices against a live `kindred serve`.
        .testTarget(
            name: "CloserKitTests",
            dependencies: [
                "CloserKit",
                "CloserAPI",
                "KindredAPI",
                "KindredCrypto",
                "KindredClient",
                "KindredStore",
                "KindredTestSupport",
                "kindred",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // SoulMateKit's pieces on their own (store, strings, status, interop with an independent
        // implementation), and two phones through `kindred chat` against a live `kindred serve`.
        .testTarget(
            name: "SoulMateKitTests",
            dependencies: [
                "SoulMateKit",
                "SoulMateAPI",
                "KindredAPI",
                "KindredCrypto",
                "KindredClient",
                "KindredStore",
                "KindredTestSupport",
                "kindred",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            exclude: ["Interop/soulmate_interop.py"],
            swiftSettings: swiftSettings
        ),
        // StreakKit's parsers (real share texts, fuzzing), streaks and achievements.
        .testTarget(
            name: "StreakKitTests",
            dependencies: [
                "StreakKit",
                "StreakClient",
                "StreakAPI",
                "KindredAPI",
                "KindredClient",
                "KindredStore",
                "KindredTestSupport",
                "kindred",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EraserKitTests",
            dependencies: [
                "EraserKit",
                "KindredClient",
                "KindredCrypto",
                "KindredTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Support/Python"],
            swiftSettings: swiftSettings
        ),
        // scripts/bench-eraser: a scan of 10,000 photos and 5,000 events against a bare walk.
        .executableTarget(
            name: "kindred-eraser-bench",
            dependencies: [
                "EraserKit",
                "KindredClient",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/EraserBench",
            swiftSettings: swiftSettings
        ),
        // scripts/bench-streak-parse: share texts per second against a plain line split.
        .executableTarget(
            name: "kindred-streak-bench",
            dependencies: ["StreakKit", "StreakClient", "StreakAPI", "KindredClient"],
            path: "Benchmarks/StreakBench",
            swiftSettings: swiftSettings
        ),
        // scripts/bench-soulmate: the relay (send, deliver, acknowledge) against `kindred serve`
        // and the local store with a million messages.
        .executableTarget(
            name: "kindred-soulmate-bench",
            dependencies: [
                "SoulMateKit", "KindredClient", "KindredCrypto", "SoulMateAPI", "KindredAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/SoulMateBench",
            swiftSettings: swiftSettings
        ),
        // The libFuzzer targets: one function per decoder that reads outside bytes
        // (docs/reliability.md, "Coverage-guided fuzzing"). A tool target like `kindred`: it reads
        // internals of BillingServer and AdminConsole (`@testable`) to reach their parsers.
        .target(
            name: "KindredFuzzTargets",
            dependencies: [
                "KindredCrypto", "KindredServerCore", "BillingServer", "AdminConsole", "StreakKit", "EraserKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // scripts/fuzz NAME [SECONDS]: libFuzzer's driver over one target (built with
        // -sanitize=fuzzer,address); in the ordinary build it replays files instead.
        .executableTarget(
            name: "kindred-fuzz",
            dependencies: ["KindredFuzzTargets"],
            swiftSettings: swiftSettings
        ),
        // Replays every corpus file of Fuzz/corpus/ through its target in the ordinary test build.
        .testTarget(
            name: "KindredFuzzTargetsTests",
            dependencies: ["KindredFuzzTargets"],
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
