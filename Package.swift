// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "swift-firestore",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "FirestoreWire", targets: ["FirestoreWire"]),
    .library(name: "FirestoreEngine", targets: ["FirestoreEngine"]),
    .library(name: "FirestoreClient", targets: ["FirestoreClient"]),
    .library(name: "FirestoreRepositories", targets: ["FirestoreRepositories"]),
    .library(name: "FirestoreMock", targets: ["FirestoreMock"]),
    .executable(name: "firestore-mock-server", targets: ["FirestoreMockServer"]),
    .executable(name: "firestore", targets: ["FirestoreCLI"]),
  ],
  targets: [
    // POSIX sockets, child processes and the package's lock: the platform pieces every other
    // target builds on.
    .target(name: "FirestorePlatform"),
    // The REST/JSON wire model and its codecs: values, documents, queries, writes, listen
    // messages, bundles; the JSON and extended-JSON readers and writers; WebChannel framing.
    .target(name: "FirestoreWire"),
    // What Firestore computes, done locally by the client's cache and listeners and by the
    // mock: value and document ordering, query matching, field transforms, and the watch
    // stream's state machine.
    .target(name: "FirestoreEngine", dependencies: ["FirestoreWire"]),
    // OpenSSL (Debian libssl-dev): libcrypto for RS256 (service account assertions).
    .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
    // libcurl (Debian libcurl4-openssl-dev): HTTP/1.1 and HTTP/2, TLS, compression, proxies.
    // On Apple platforms the client uses URLSession instead, so nothing more is needed there.
    .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    // SQLite from the system (Debian libsqlite3-dev) for the persistent local cache.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // What applications import: Firestore, references, queries, snapshots, writes,
    // transactions, listeners, the local cache, Codable, errors, settings, auth, transports.
    .target(
      name: "FirestoreClient",
      dependencies: [
        "FirestoreEngine", "FirestorePlatform", "FirestoreWire", "COpenSSL", "CSQLite",
        .target(name: "CCurl", condition: .when(platforms: [.linux])),
      ]),
    // The app layer on the client: article feeds, profiles with load states, per-user
    // favorites, feed visibility.
    .target(name: "FirestoreRepositories", dependencies: ["FirestoreClient", "FirestorePlatform"]),
    // The `firestore demo` scenario over the repositories, and the request-counting
    // transport it measures with (also used by the benchmarks and the tests); not a product.
    .target(name: "FirestoreDemo", dependencies: ["FirestoreClient", "FirestorePlatform", "FirestoreRepositories"]),
    // zlib (Debian zlib1g-dev): the mock server's gzip responses.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // HTTP/1.1 framing on POSIX sockets: the request reader, the response head, chunked
    // coding. The mock server and the tests' raw servers and clients all read and write
    // HTTP through it; not a product.
    .target(name: "HTTP1Server", dependencies: ["FirestorePlatform", "FirestoreWire"], path: "Mocks/HTTP1Server"),
    // An in-memory Firestore for tests that speaks the emulator's REST and WebChannel
    // protocols, with fault injection and a request log.
    .target(
      name: "FirestoreMock", dependencies: ["FirestoreEngine", "FirestorePlatform", "FirestoreWire", "HTTP1Server", "CZlib"],
      path: "Mocks/FirestoreMock"),
    // The one command-line parser of every executable: options, `--name=value`, commands,
    // usage errors.
    .target(name: "CommandLineSupport", dependencies: ["FirestorePlatform"]),
    // The `firestore` command line (product name `firestore`).
    .executableTarget(
      name: "FirestoreCLI",
      dependencies: [
        "CommandLineSupport", "FirestoreClient", "FirestoreDemo", "FirestoreMock", "FirestorePlatform", "FirestoreRepositories",
      ]),
    // The mock as a process (product name `firestore-mock-server`).
    .executableTarget(
      name: "FirestoreMockServer", dependencies: ["CommandLineSupport", "FirestoreMock"], path: "Mocks/FirestoreMockServer"),
    // What the benchmark and the soak share: a mock server child process, resident memory.
    .target(name: "BenchmarkSupport", dependencies: ["FirestorePlatform"], path: "Benchmarks/Support"),
    // Performance scenarios, beside the official Python client and curl (Benchmarks/README.md).
    .executableTarget(
      name: "firestore-bench",
      dependencies: [
        "BenchmarkSupport", "CommandLineSupport", "FirestoreDemo", "FirestoreMock", "FirestoreClient", "FirestorePlatform",
        "FirestoreRepositories", .target(name: "CCurl", condition: .when(platforms: [.linux])),
      ],
      path: "Benchmarks/FirestoreBench"),
    // Listeners under writes and back-channel cuts for minutes (scripts/soak.sh).
    .executableTarget(
      name: "firestore-soak", dependencies: ["BenchmarkSupport", "CommandLineSupport", "FirestoreClient", "FirestorePlatform"],
      path: "Soak/FirestoreSoak"),
    // Code written against Firebase's Apple SDK (the seeds' and a program using its API), built
    // unchanged but for the imports and the making of the instance, in Swift 5 language mode as
    // the apps it comes from; the conformance suite runs it against both backends. Its classes
    // are view models that an app drives from the main actor, and it is built so (an app
    // target's default isolation): otherwise their async methods mutate unguarded state off
    // it while the program reads it, and crash now and then.
    .executableTarget(
      name: "apple-port", dependencies: ["FirestoreClient"], path: "Examples/ApplePort", exclude: ["tsan-suppressions.txt"],
      swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-default-isolation", "MainActor"])]),
    // What the test targets share: the backends (mock, emulator, TLS front) and the ledger
    // of tests that reached the emulator, the built-executable locator and child-process
    // runner, `Blocking.run`, `PortProbe`, and `RawHTTPServer` for replies no real server sends.
    .target(
      name: "FirestoreTestSupport",
      dependencies: ["FirestoreClient", "FirestoreDemo", "FirestoreMock", "FirestorePlatform", "FirestoreWire", "HTTP1Server"],
      path: "Tests/FirestoreTestSupport"),
    // One test target per module, and the conformance suite, which runs every case on the
    // mock and, when one is available, on the emulator (CONTRIBUTING.md).
    .testTarget(name: "FirestorePlatformTests", dependencies: ["FirestorePlatform", "FirestoreTestSupport"]),
    .testTarget(name: "FirestoreWireTests", dependencies: ["FirestoreEngine", "FirestorePlatform", "FirestoreWire"]),
    .testTarget(name: "FirestoreEngineTests", dependencies: ["FirestoreEngine", "FirestorePlatform", "FirestoreWire"]),
    .testTarget(
      name: "FirestoreClientTests",
      dependencies: [
        "FirestoreClient", "FirestoreEngine", "FirestoreMock", "FirestorePlatform", "FirestoreTestSupport", "HTTP1Server", "COpenSSL",
      ]),
    // Depends on apple-port so that it is built first: the suite runs it as a child process.
    .testTarget(
      name: "FirestoreConformanceTests",
      dependencies: [
        "FirestoreClient", "FirestoreDemo", "FirestoreRepositories", "FirestoreMock", "FirestorePlatform", "FirestoreTestSupport",
        "apple-port",
      ]),
    // The app layer on both backends, as the conformance suite runs its cases.
    .testTarget(
      name: "FirestoreRepositoriesTests",
      dependencies: [
        "FirestoreClient", "FirestoreDemo", "FirestoreRepositories", "FirestoreMock", "FirestorePlatform", "FirestoreTestSupport",
        "FirestoreWire",
      ]),
    .testTarget(name: "HTTP1ServerTests", dependencies: ["HTTP1Server"]),
    .testTarget(
      name: "FirestoreMockTests",
      dependencies: ["FirestoreEngine", "FirestoreMock", "FirestorePlatform", "FirestoreTestSupport", "HTTP1Server"]),
    // Runs the built `firestore` executable as a user would; depends on it so it is built first.
    .testTarget(name: "FirestoreCLITests", dependencies: ["FirestoreCLI", "FirestoreMock", "FirestoreTestSupport", "FirestoreWire"]),
    // Runs the built `firestore-bench` (its command line and JSON output; never timings).
    .testTarget(name: "FirestoreBenchTests", dependencies: ["firestore-bench", "FirestoreTestSupport", "FirestoreWire"]),
  ],
  swiftLanguageModes: [.v6]
)
