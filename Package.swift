// swift-tools-version: 6.2
import PackageDescription

/// Compiler settings shared by every target (STYLE.md rule 10): Swift 6 language mode,
/// strict concurrency (the Swift 6 default) and `any` spelled out for existentials.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Kindred",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "KindredCrypto", targets: ["KindredCrypto"]),
        .executable(name: "kindred", targets: ["kindred"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // Every end-to-end wire format of the five apps. swift-crypto only, no I/O.
        .target(
            name: "KindredCrypto",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "kindred",
            dependencies: [
                "KindredCrypto",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KindredCryptoTests",
            dependencies: ["KindredCrypto"],
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
        // Drives the built `kindred` executable as a subprocess, end to end.
        .testTarget(
            name: "KindredCLITests",
            dependencies: ["kindred"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
