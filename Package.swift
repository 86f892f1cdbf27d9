// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "swift-firestore",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "FirestoreWire", targets: ["FirestoreWire"]),
    .library(name: "FirestoreClient", targets: ["FirestoreClient"]),
    .library(name: "FirestoreMock", targets: ["FirestoreMock"]),
    .executable(name: "firestore-mock-server", targets: ["FirestoreMockServer"]),
  ],
  targets: [
    .target(name: "FirestoreWire"),
    // SQLite from the system (Debian libsqlite3-dev) for the persistent local cache.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(name: "FirestoreClient", dependencies: ["FirestoreWire", "CSQLite"]),
    .target(name: "FirestoreMock", dependencies: ["FirestoreWire"], path: "Mocks/FirestoreMock"),
    .executableTarget(name: "FirestoreMockServer", dependencies: ["FirestoreMock"], path: "Mocks/FirestoreMockServer"),
    .executableTarget(name: "firestore-bench", dependencies: ["FirestoreMock", "FirestoreClient"], path: "Benchmarks/FirestoreBench"),
    .testTarget(name: "FirestoreWireTests", dependencies: ["FirestoreWire"]),
    .testTarget(name: "FirestoreClientTests", dependencies: ["FirestoreClient"]),
    .testTarget(name: "FirestoreConformanceTests", dependencies: ["FirestoreClient", "FirestoreMock"]),
    .testTarget(name: "FirestoreMockTests", dependencies: ["FirestoreMock"]),
  ],
  swiftLanguageModes: [.v6]
)
