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
    // OpenSSL's libcrypto, for RS256 (service account assertions): Debian libssl-dev.
    .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .target(name: "FirestoreClient", dependencies: ["FirestoreWire", "COpenSSL"]),
    .target(name: "FirestoreMock", dependencies: ["FirestoreWire"], path: "Mocks/FirestoreMock"),
    .executableTarget(name: "FirestoreMockServer", dependencies: ["FirestoreMock"], path: "Mocks/FirestoreMockServer"),
    .executableTarget(name: "firestore-bench", dependencies: ["FirestoreMock", "FirestoreClient"], path: "Benchmarks/FirestoreBench"),
    .testTarget(name: "FirestoreWireTests", dependencies: ["FirestoreWire"]),
    .testTarget(name: "FirestoreClientTests", dependencies: ["FirestoreClient", "FirestoreMock", "COpenSSL"]),
    .testTarget(name: "FirestoreConformanceTests", dependencies: ["FirestoreClient", "FirestoreMock"]),
    .testTarget(name: "FirestoreMockTests", dependencies: ["FirestoreMock"]),
  ],
  swiftLanguageModes: [.v6]
)
