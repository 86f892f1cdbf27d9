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

/// The emulator behind a TLS + HTTP/2 front (`nghttpx` with a certificate from a test CA),
/// which `scripts/test.sh` starts and names in `FIRESTORE_TEST_HTTP2_FRONT` (`localhost:port`)
/// and `FIRESTORE_TEST_CA` (the CA's PEM file).
enum HTTP2Front {
  static let host = ProcessInfo.processInfo.environment["FIRESTORE_TEST_HTTP2_FRONT"].flatMap { $0.isEmpty ? nil : $0 }
  static let certificateAuthority = ProcessInfo.processInfo.environment["FIRESTORE_TEST_CA"]
  static let isAvailable = Emulator.isAvailable && host != nil && certificateAuthority != nil
  /// Set by `scripts/test.sh` when the front (and the proxy) must take part.
  static let isRequired = ProcessInfo.processInfo.environment["FIRESTORE_TEST_FRONTS_REQUIRED"] == "1"
  /// A transport that trusts the test CA.
  static let transport = CurlTransport(trustedCertificates: certificateAuthority)
}

/// A server the conformance suite runs against: every case runs on the in-process mock
/// server and, when `FIRESTORE_EMULATOR_HOST` is set, on the real emulator too — directly
/// over HTTP/1.1 and, when the test script started one, through a TLS + HTTP/2 front. The
/// same test code and assertions for all.
enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
  case mock
  case emulator
  /// The emulator through ``HTTP2Front``.
  case http2

  /// The backends of this run: the mock always, the emulator (directly and through the
  /// front) when it is available. `FIRESTORE_CONFORMANCE_BACKENDS=mock` (or `emulator`,
  /// `http2`) narrows it, to time one alone.
  static let all: [Backend] = {
    var available: [Backend] = [.mock]
    if Emulator.isAvailable { available.append(.emulator) }
    // The whole suite through the front is opt-in (FIRESTORE_TEST_FRONT_SUITE=1): nghttpx
    // sometimes reuses a backend connection the emulator closed without saying so, and
    // answers 502 to a commit that cannot be sent again. The transport's own tests run
    // through the front always.
    if HTTP2Front.isAvailable && ProcessInfo.processInfo.environment["FIRESTORE_TEST_FRONT_SUITE"] == "1" {
      available.append(.http2)
    }
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

  /// Whether the requests end at the real emulator (directly or through the front).
  var reachesEmulator: Bool { self != .mock }

  /// `host:port` of this backend.
  var host: String {
    switch self {
    case .mock: return Self.mockServer.hostAndPort
    case .emulator: return Emulator.host ?? "127.0.0.1:1"
    case .http2: return HTTP2Front.host ?? "localhost:1"
    }
  }

  /// What carries this backend's requests (the front's needs the test CA).
  var transport: any Transport {
    self == .http2 ? HTTP2Front.transport : FirestoreSettings.defaultTransport
  }

  /// `http://host:port` or, for the front, `https://host:port`.
  var baseURL: String { settings().baseURL }

  /// Settings for this backend: its host, TLS for the front, the owner token.
  func settings() -> FirestoreSettings {
    var settings = FirestoreSettings.emulator(host: host)
    if self == .http2 {
      settings.isSSLEnabled = true
      settings.transport = HTTP2Front.transport
    }
    return settings
  }

  /// A client for this backend's database.
  func firestore(database: String = "(default)", configure: (inout FirestoreSettings) -> Void = { _ in }) -> Firestore {
    var settings = settings()
    settings.timeout = .seconds(30)
    configure(&settings)
    return Firestore(projectID: Self.projectID, database: database, settings: settings)
  }

  /// A mock server apart from ``mockServer``, for the tests that write thousands of
  /// documents: on the shared one their commits would hold up every other test's calls.
  static let isolatedMockServer: MockFirestoreServer = {
    do {
      return try MockFirestoreServer.start()
    } catch {
      fatalError("cannot start the mock server: \(error)")
    }
  }()

  /// A client for a project of its own on this backend (on the mock, on a server of its
  /// own too), for a test that writes thousands of documents: in the shared project every
  /// commit would make the mock re-evaluate the other tests' listeners over them, and their
  /// queries scan them.
  func isolatedFirestore(_ hint: String = #function) -> Firestore {
    Ledger.record(self)
    var settings = self == .mock ? FirestoreSettings.emulator(host: Self.isolatedMockServer.hostAndPort) : settings()
    settings.timeout = .seconds(30)
    let clean = hint.lowercased().filter { $0.isLetter || $0.isNumber }
    return Firestore(projectID: "demo-\(clean.prefix(16))-\(UInt32.random(in: 0...UInt32.max))", settings: settings)
  }

  // Every backend, not only those of `all`: the transport's own tests use the front's too.
  private static let clients: [Backend: Firestore] = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.firestore()) })

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
    guard backend.reachesEmulator, let path, let test = Test.current else { return }
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
