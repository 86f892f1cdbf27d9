// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "swift-firestore",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "FirestoreWire", targets: ["FirestoreWire"]),
    .library(name: "FirestoreClient", targets: ["FirestoreClient"]),
  ],
  targets: [
    .target(name: "FirestoreWire"),
    .target(name: "FirestoreClient", dependencies: ["FirestoreWire"]),
    .testTarget(name: "FirestoreWireTests", dependencies: ["FirestoreWire"]),
    .testTarget(name: "FirestoreClientTests", dependencies: ["FirestoreClient"]),
    .testTarget(name: "FirestoreEmulatorTests", dependencies: ["FirestoreClient"]),
  ],
  swiftLanguageModes: [.v6]
)
