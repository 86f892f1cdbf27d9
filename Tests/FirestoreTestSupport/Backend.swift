import FirestoreClient
import FirestoreMock
import Foundation
import Testing

/// A server the end-to-end tests run against: every case runs on the in-process mock
/// server and, when `FIRESTORE_EMULATOR_HOST` is set, on the real emulator too — directly
/// over HTTP/1.1 and, when the test script started one, through a TLS + HTTP/2 front. The
/// same test code and assertions for all.
public enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
  case mock
  case emulator
  /// The emulator through ``HTTP2Front``.
  case http2

  /// The backends of this run: the mock always, the emulator (directly and through the
  /// front) when it is available. `FIRESTORE_CONFORMANCE_BACKENDS=mock` (or `emulator`,
  /// `http2`) narrows it, to time one alone.
  public static let all: [Backend] = {
    var available: [Backend] = [.mock]
    if Emulator.isAvailable { available.append(.emulator) }
    if HTTP2Front.isAvailable { available.append(.http2) }
    guard let only = ProcessInfo.processInfo.environment["FIRESTORE_CONFORMANCE_BACKENDS"].flatMap(Backend.init(rawValue:)) else {
      return available
    }
    return available.filter { $0 == only }
  }()

  /// Whether this run times the same work on every backend
  /// (`FIRESTORE_SUITE_SAME_WORK=1`, as `Benchmarks/suite-time.sh` sets it): the tests of one
  /// backend alone are left out, and every test does on the mock what it does on the emulator
  /// (see ``workload(mock:emulator:)`` and ``Trait/differsByBackend``).
  public static let timesSameWork = ProcessInfo.processInfo.environment["FIRESTORE_SUITE_SAME_WORK"] == "1"

  /// One project per test process, so runs and suites never see each other's data.
  public static let projectID = "demo-swift-\(UInt32.random(in: 0...UInt32.max))"

  /// The mock server, started once per test process.
  public static let mockServer: MockFirestoreServer = {
    do {
      return try MockFirestoreServer.start()
    } catch {
      fatalError("cannot start the mock server: \(error)")
    }
  }()

  public var testDescription: String { rawValue }

  /// Whether the requests end at the real emulator (directly or through the front).
  public var reachesEmulator: Bool { self != .mock }

  /// A test's size on this backend: the mock's when it is the mock, the emulator's when it
  /// is the emulator or when the run times the same work on both (``timesSameWork``).
  public func workload<Size>(mock: Size, emulator: Size) -> Size {
    reachesEmulator || Self.timesSameWork ? emulator : mock
  }

  /// `host:port` of this backend.
  public var host: String {
    switch self {
    case .mock: return Self.mockServer.hostAndPort
    case .emulator: return Emulator.host ?? "127.0.0.1:1"
    case .http2: return HTTP2Front.host ?? "localhost:1"
    }
  }

  /// What carries this backend's requests (the front's needs the test CA).
  public var transport: any Transport {
    self == .http2 ? HTTP2Front.transport : FirestoreSettings.defaultTransport
  }

  /// `http://host:port` or, for the front, `https://host:port`.
  public var baseURL: String { (self == .http2 ? "https://" : "http://") + host }

  /// Settings for this backend: its host, TLS for the front, the owner token. Records the
  /// test in the ``Ledger``, as does every way to a client of this backend.
  public func settings() -> FirestoreSettings {
    Ledger.record(self)
    return connectionSettings()
  }

  private func connectionSettings() -> FirestoreSettings {
    let settings = FirestoreSettings.emulator(host: host)
    if self == .http2 {
      settings.isSSLEnabled = true
      settings.transport = HTTP2Front.transport
    }
    return settings
  }

  /// A client for this backend's database.
  public func firestore(database: String = "(default)", configure: (inout FirestoreSettings) -> Void = { _ in }) -> Firestore {
    Ledger.record(self)
    return client(database: database, configure: configure)
  }

  private func client(database: String = "(default)", configure: (inout FirestoreSettings) -> Void = { _ in }) -> Firestore {
    var settings = connectionSettings()
    settings.timeout = hangLimit
    configure(&settings)
    return Firestore(projectID: Self.projectID, database: database, settings: settings)
  }

  /// A fresh project ID (an empty database) for one test, named after it; records the
  /// test in the ``Ledger``.
  public func project(_ hint: String = #function) -> String {
    Ledger.record(self)
    let clean = hint.lowercased().filter { $0.isLetter || $0.isNumber }
    return "demo-\(clean.prefix(16))-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// A mock server apart from ``mockServer``, for the tests that write thousands of
  /// documents: on the shared one their commits would hold up every other test's calls.
  public static let isolatedMockServer: MockFirestoreServer = {
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
  public func isolatedFirestore(_ hint: String = #function) -> Firestore {
    let settings = self == .mock ? FirestoreSettings.emulator(host: Self.isolatedMockServer.hostAndPort) : settings()
    settings.timeout = hangLimit
    return Firestore(projectID: project(hint), settings: settings)
  }

  // Every backend, not only those of `all`: the transport's own tests use the front's too.
  // Made without recording: whichever test first touches one gets them all.
  private static let clients: [Backend: Firestore] = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.client()) })

  /// The shared client of this backend.
  public var db: Firestore {
    Ledger.record(self)
    return Self.clients[self] ?? client()
  }

  /// A collection no other test uses.
  public func collection(_ hint: String = #function) -> CollectionReference {
    let clean = hint.filter { $0.isLetter || $0.isNumber }
    return db.collection("\(clean.prefix(40))-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))")
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs a test (or suite) only when `backend` is among this run's ``Backend/all``: for the
  /// tests of one backend alone (the mock's fault injection, the emulator's security rules),
  /// so that `FIRESTORE_CONFORMANCE_BACKENDS` narrows them with the cases of every backend.
  /// A run that times the same work on every backend (``Backend/timesSameWork``) leaves
  /// these out too.
  public static func requires(_ backend: Backend) -> Self {
    .enabled(
      if: Backend.all.contains(backend) && !Backend.timesSameWork,
      "runs on \(backend.rawValue) only, which this run leaves out")
  }

  /// For a test whose work differs by backend beyond its size (the mock runs what the
  /// emulator answers as unimplemented): a run that times the same work on every backend
  /// leaves it out.
  public static var differsByBackend: Self {
    .disabled(if: Backend.timesSameWork, "does other work on each backend, which this timing run leaves out")
  }
}
