import FirestoreClient
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@Suite("Emulator: availability")
struct EmulatorRequirementTests {
  @Test("the emulator takes part when it is required")
  func emulatorIsReachableWhenRequired() async throws {
    guard Emulator.isRequired else { return }
    #expect(Emulator.isAvailable, "FIRESTORE_EMULATOR_REQUIRED=1 but FIRESTORE_EMULATOR_HOST is not set")
    let snapshot = try await Backend.emulator.db.document("availability/probe").getDocument()
    #expect(!snapshot.exists)
  }

  @Test("the TLS + HTTP/2 front takes part when it is required")
  func frontIsReachableWhenRequired() async throws {
    guard HTTP2Front.isRequired else { return }
    #expect(HTTP2Front.isAvailable, "FIRESTORE_TEST_FRONTS_REQUIRED=1 but FIRESTORE_TEST_HTTP2_FRONT or FIRESTORE_TEST_CA is not set")
    let snapshot = try await Backend.http2.db.document("availability/probe").getDocument()
    #expect(!snapshot.exists)
  }
}

/// A thread-safe counter for closures that run concurrently.
final class Counter: Sendable {
  private let count = Locked(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

extension DocumentReference {
  /// Sets `v` to 1, then to 2, in two commits whose times differ.
  ///
  /// - Returns: the update time of the first write, at which a read sees `v` still 1.
  func writeTwoVersions() async throws -> Timestamp {
    let first = try await setData(["v": 1])
    let second = try await setData(["v": 2])
    try #require(second.updateTime > first.updateTime, "a later commit of the document has a later time")
    return first.updateTime
  }
}
