// swift-tools-version:6.0
// QuickStart: a small program that uses swift-firestore from another package, the way an
// app would. Run it against an emulator from the repository root:
//
//   FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 swift run --package-path Examples/QuickStart quickstart
import PackageDescription

let package = Package(
  name: "QuickStart",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "swift-firestore", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "quickstart",
      dependencies: [.product(name: "FirestoreClient", package: "swift-firestore")]
    )
  ],
  swiftLanguageModes: [.v6]
)
