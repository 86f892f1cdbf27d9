import FirestoreMock
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The Firestore emulator named by `FIRESTORE_EMULATOR_HOST`, when there is one.
enum Emulator {
  static let host = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"]
  static let isAvailable = host?.isEmpty == false
  /// Set by `scripts/test.sh` (and so CI) when the emulator must take part.
  static let isRequired = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_REQUIRED"] == "1"
}

/// A server the conformance suite runs against: every case runs on the in-process mock
/// server and, when `FIRESTORE_EMULATOR_HOST` is set, on the real emulator too — the same
/// test code and assertions for both.
enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
  case mock
  case emulator

  /// The backends of this run: the mock always, the emulator when it is available.
  /// `FIRESTORE_CONFORMANCE_BACKENDS=mock` (or `emulator`) narrows it, to time one alone.
  static let all: [Backend] = {
    let available: [Backend] = Emulator.isAvailable ? [.mock, .emulator] : [.mock]
    guard let only = ProcessInfo.processInfo.environment["FIRESTORE_CONFORMANCE_BACKENDS"].flatMap(Backend.init(rawValue:)) else {
      return available
    }
    return available.filter { $0 == only }
  }()

  /// One project per test process, so runs and suites never see each other's data.
  static let projectID = "demo-swift-\(UInt32.random(in: 0...UInt32.max))"

  /// The mock server, started once per test process.
  static let mockServer: MockFirestoreServer = {
    do {
      return try MockFirestoreServer.start()
    } catch {
      fatalError("cannot start the mock server: \(error)")
    }
  }()

  var testDescription: String { rawValue }

  /// `host:port` of this backend.
  var host: String {
    switch self {
    case .mock: return Self.mockServer.hostAndPort
    case .emulator: return Emulator.host ?? "127.0.0.1:1"
    }
  }

  /// A client for this backend's database.
  func firestore(database: String = "(default)", configure: (inout FirestoreSettings) -> Void = { _ in }) -> Firestore {
    var settings = FirestoreSettings.emulator(host: host)
    settings.timeout = .seconds(30)
    configure(&settings)
    return Firestore(projectID: Self.projectID, database: database, settings: settings)
  }

  /// A client for a project of its own on this backend, for a test that writes thousands
  /// of documents: in the shared project every commit would make the mock re-evaluate
  /// the other tests' listeners over them, and their queries scan them.
  func isolatedFirestore(_ hint: String = #function) -> Firestore {
    Ledger.record(self)
    var settings = FirestoreSettings.emulator(host: host)
    settings.timeout = .seconds(30)
    let clean = hint.lowercased().filter { $0.isLetter || $0.isNumber }
    return Firestore(projectID: "demo-\(clean.prefix(16))-\(UInt32.random(in: 0...UInt32.max))", settings: settings)
  }

  private static let clients: [Backend: Firestore] = Dictionary(uniqueKeysWithValues: all.map { ($0, $0.firestore()) })

  /// The shared client of this backend.
  var db: Firestore {
    Ledger.record(self)
    return Self.clients[self] ?? firestore()
  }

  /// A collection no other test uses.
  func collection(_ hint: String = #function) -> CollectionReference {
    let clean = hint.filter { $0.isLetter || $0.isNumber }
    return db.collection("\(clean.prefix(40))-\(AutoID.make().prefix(6))")
  }
}

/// Records which tests reached the emulator, for `scripts/test.sh` to count: one line per
/// test case in the file named by `FIRESTORE_TEST_LEDGER`.
enum Ledger {
  private static let path = ProcessInfo.processInfo.environment["FIRESTORE_TEST_LEDGER"]
  private static let written = Locked(Set<String>())

  static func record(_ backend: Backend) {
    guard backend == .emulator, let path, let test = Test.current else { return }
    let line = "\(test.id)\n"
    guard written.withLock({ $0.insert(line).inserted }) else { return }
    // O_APPEND writes of one short line are atomic, so parallel tests do not interleave.
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard fd >= 0 else { return }
    _ = line.withCString { write(fd, $0, strlen($0)) }
    close(fd)
  }
}

@Suite("Emulator: availability")
struct EmulatorRequirementTests {
  @Test("the emulator takes part when it is required")
  func emulatorIsReachableWhenRequired() async throws {
    guard Emulator.isRequired else { return }
    #expect(Emulator.isAvailable, "FIRESTORE_EMULATOR_REQUIRED=1 but FIRESTORE_EMULATOR_HOST is not set")
    let snapshot = try await Backend.emulator.db.document("availability/probe").getDocument()
    #expect(!snapshot.exists)
  }
}

/// A thread-safe counter for closures that run concurrently.
final class Counter: Sendable {
  private let count = Locked(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
