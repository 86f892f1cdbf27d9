import Foundation
import Synchronization
import Testing

@testable import FirestoreClient

/// Access to the Firestore emulator named by `FIRESTORE_EMULATOR_HOST`.
///
/// Suites carry `.enabled(if: Emulator.isAvailable)`: without the variable they are
/// skipped, and ``EmulatorRequirementTests`` fails the run when
/// `FIRESTORE_EMULATOR_REQUIRED=1` (as `scripts/test.sh` and CI set it).
enum Emulator {
  static let host = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"]
  static let isAvailable = host?.isEmpty == false
  static let isRequired = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_REQUIRED"] == "1"

  /// One project per test process, so runs and suites never see each other's data.
  static let projectID = "demo-swift-\(UInt32.random(in: 0...UInt32.max))"

  /// A client for the emulator's default database.
  static func firestore(database: String = "(default)", configure: (inout FirestoreSettings) -> Void = { _ in }) -> Firestore {
    var settings = FirestoreSettings()
    settings.timeout = .seconds(30)
    configure(&settings)
    return Firestore(projectID: projectID, database: database, settings: settings)
  }

  static let db = firestore()

  /// A collection no other test uses.
  static func collection(_ hint: String = #function) -> CollectionReference {
    let clean = hint.filter { $0.isLetter || $0.isNumber }
    return db.collection("\(clean.prefix(40))-\(AutoID.make().prefix(6))")
  }
}

@Suite("Emulator: availability")
struct EmulatorRequirementTests {
  @Test("the emulator suite runs when it is required")
  func emulatorIsReachableWhenRequired() async throws {
    guard Emulator.isRequired else { return }
    #expect(Emulator.isAvailable, "FIRESTORE_EMULATOR_REQUIRED=1 but FIRESTORE_EMULATOR_HOST is not set")
    let snapshot = try await Emulator.db.document("availability/probe").getDocument()
    #expect(!snapshot.exists)
  }
}

/// A thread-safe counter for closures that run concurrently.
final class Counter: Sendable {
  private let count = Mutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
