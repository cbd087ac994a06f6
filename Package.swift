// swift-tools-version: 6.0
import PackageDescription

/// Constellation: signed QR tokens become connections; connections become constellations.
let package = Package(
    name: "Constellation",
    // The server, the CLI and their tests run on Linux (Debian 12, glibc); the model, tokens and the
    // client are kept free of Linux-only imports for an app on Apple's platforms to reuse.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "constellation", targets: ["constellation"]),
        .executable(name: "constellation-server", targets: ["constellation-server"]),
        .executable(name: "constellation-bench", targets: ["constellation-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // C libraries, each wrapped once by a small Swift type in the module that owns it.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // glibc's heap tuning, which its Swift module leaves out (`ProcessMemory`).
        .systemLibrary(name: "CMalloc"),
        // Linux's epoll, which glibc's Swift module leaves out (`SocketPoller`, the one socket poller of the process).
        .systemLibrary(name: "CEpoll"),

        // Wire types shared by server and client.
        .target(name: "ConstellationModel"),
        // PASETO v4.public tokens over libsodium Ed25519, key ring, PASERK ids.
        .target(name: "Tokens", dependencies: ["CSodium"]),
        // The server's key files (signing, retired, pseudonym) and their rotation. No HTTP.
        .target(name: "Keys", dependencies: ["ConstellationModel", "Tokens"]),
        // Backup archives: a database dump and the key files with a manifest of checksums (ustar). No database.
        .target(name: "Backup", dependencies: ["ConstellationModel", "Keys", "Tokens"]),
        // QR: encode (libqrencode), render (text, SVG, PNG via libpng), decode (zbar, libpng, libjpeg-turbo).
        .target(name: "QR", dependencies: ["CQREncode", "CPNG", "CZBar", "CTurboJPEG"]),
        // Pure graph engine: layouts and statistics. No I/O.
        .target(name: "Graph"),
        // Laid-out graphs as documents: the project's JSON, SVG, GEXF, GraphML, graphology, Cytoscape.js, CSV.
        .target(name: "GraphExport", dependencies: ["ConstellationModel", "Graph"]),
        // PostgreSQL through libpq: connection, pool, migrations, embedded server, repositories.
        .target(
            name: "Store",
            dependencies: [
                "CEpoll",
                "CLibPQ",
                "ConstellationModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The schema's migrations (the repository's `migrations` links here), carried in the
            // resource bundle byte for byte, so a server copied with its bundles finds them.
            resources: [.copy("Migrations")]
        ),
        // The web client's pages, scripts and styles, served by the server.
        .target(name: "WebClient", resources: [.copy("Web")]),
        // HTTP API: routes, middleware, application assembly.
        .target(
            name: "Server",
            dependencies: [
                "CMalloc", "ConstellationModel", "Tokens", "Keys", "QR", "Graph", "GraphExport", "Store", "WebClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The API's OpenAPI document, served by the server itself (`WebAssets`).
            resources: [.copy("OpenAPI")]
        ),
        // Typed HTTP client for the API, shared by the CLI and the tests.
        .target(
            name: "Client",
            dependencies: [
                "ConstellationModel", "CCurl",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "constellation-bench", dependencies: ["Graph", "Tokens"]),
        .executableTarget(
            name: "constellation",
            dependencies: [
                "Client", "ConstellationModel", "Tokens", "QR", "Graph", "GraphExport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "constellation-server",
            dependencies: [
                "Backup", "ConstellationModel", "Graph", "Keys", "Server", "Store", "Tokens",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // Test support: a fresh database per suite on the PostgreSQL that Tools/test started.
        .target(
            name: "TestSupport",
            dependencies: ["Store", .product(name: "Logging", package: "swift-log"), .product(name: "NIOPosix", package: "swift-nio")],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "TokensTests", dependencies: ["Tokens", "QR"], exclude: ["Vectors"]),
        .testTarget(name: "KeysTests", dependencies: ["Keys", "Tokens"]),
        // The README and docs/: every relative link and anchor resolves; the README stays short; the
        // problem codes, the OpenAPI document and the pages' catalogs agree.
        .testTarget(name: "DocsTests", dependencies: ["ConstellationModel"]),
        .testTarget(name: "QRTests", dependencies: ["QR"]),
        // The fixtures are read by path (`StatisticsOracleTests.fixtures`), not as resources.
        .testTarget(name: "GraphTests", dependencies: ["Graph", "GraphExport"], exclude: ["Fixtures"]),
        .testTarget(name: "StoreTests", dependencies: ["ConstellationModel", "Store", "TestSupport"]),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Server", "Client", "ConstellationModel", "Graph", "GraphExport", "Keys", "QR", "Tokens", "Store", "TestSupport",
                "WebClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The wire types' hand-written JSON writers against the encoder. No server, no database.
        .testTarget(name: "ModelTests", dependencies: ["ConstellationModel"]),
        // The server's parts that need neither a socket nor a database: how HTTP maps onto the API
        // (the router without a socket), the settings, the bounds on graph work.
        .testTarget(
            name: "RoutingTests",
            dependencies: [
                "Server", "ConstellationModel", "Graph", "Store", "Tokens",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Depends on the executables so that `swift test` rebuilds the binaries it runs.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "Backup", "Client", "ConstellationModel", "Graph", "QR", "Store", "Tokens", "TestSupport", "constellation",
                "constellation-server",
            ]
        ),
    ]
)

/// The Swift settings every target of ours compiles with.
let swiftSettings: [SwiftSetting] = [
    // `any P` for an existential, so that its cost is visible where it is spelled.
    .enableUpcomingFeature("ExistentialAny")
]

// libFuzzer targets (Tests/Fuzz/, run by Tools/fuzz), declared only when CONSTELLATION_FUZZ is set so that the
// normal build never sees them. Each depends on the one module it feeds; none on the server's HTTP stack.
if Context.environment["CONSTELLATION_FUZZ"] != nil {
    package.targets += [
        .executableTarget(name: "fuzz-tokens", dependencies: ["Tokens"], path: "Tests/Fuzz/Tokens"),
        .executableTarget(name: "fuzz-requests", dependencies: ["ConstellationModel"], path: "Tests/Fuzz/Requests"),
        .executableTarget(name: "fuzz-edge-list", dependencies: ["Graph"], path: "Tests/Fuzz/EdgeList"),
        .executableTarget(name: "fuzz-qr-image", dependencies: ["QR"], path: "Tests/Fuzz/QRImage"),
    ]
}

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
