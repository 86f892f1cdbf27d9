import FirestoreMock
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Conformance: connection")
struct ConnectionConformanceTests {
  @Test("a named database is separate from the default one", arguments: Backend.all)
  func namedDatabase(_ backend: Backend) async throws {
    let named = backend.firestore(database: "second-db")
    let path = "named/\(AutoID.make())"
    try await named.document(path).setData(["where": "second"])
    #expect(try await named.document(path).getDocument().get("where") as? String == "second")
    #expect(try await backend.db.document(path).getDocument().exists == false)
  }

  @Test("a closure token provider is asked for every request", arguments: Backend.all)
  func closureTokenProvider(_ backend: Backend) async throws {
    let calls = Locked(0)
    let db = backend.firestore { s in
      s.tokenProvider = ClosureTokenProvider { _ in
        calls.withLock { $0 += 1 }
        return "owner"
      }
    }
    try await db.document("tokens/a").setData(["x": 1])
    _ = try await db.document("tokens/a").getDocument()
    #expect(calls.withLock { $0 } == 2)
  }

  @Test("the per-call timeout fails a call with deadlineExceeded", arguments: Backend.all)
  func perCallTimeout(_ backend: Backend) async throws {
    let db = backend.firestore { s in
      s.timeout = .milliseconds(150)
      s.retryPolicy = .none
    }
    let call: RESTClient.Call
    switch backend {
    case .emulator, .http2:
      // The emulator never answers a GET with ?transaction= (see Docs/Protocol/REST.md).
      var get = FirestoreRPC.get(ResourcePath(segments: ["t", "x"]))
      get.query = [("transaction", "AAAA")]
      call = .init(get)
    case .mock:
      let path = "hang/\(AutoID.make())"
      Backend.mockServer.faults.add(FaultRule(route: path, fault: .stall, remaining: 1))
      call = .init(.get(ResourcePath(segments: path.split(separator: "/").map(String.init))))
    }
    // The deadline, not the server, ends this call.
    let error = try await #require(throws: FirestoreError.self) { _ = try await db.rest.unary(call) }
    #expect(error.code == .deadlineExceeded)
  }
}

/// What only the real emulator can show: settings read from its environment variable and
/// its checking of bearer tokens (the mock accepts any token).
@Suite("Emulator only: settings and tokens", .requires(.emulator))
struct EmulatorOnlyTests {
  @Test("FIRESTORE_EMULATOR_HOST selects plain HTTP and the owner token")
  func environmentSelectsEmulator() {
    let settings = FirestoreSettings()
    #expect(settings.host == Emulator.host)
    #expect(settings.isSSLEnabled == false)
    #expect((settings.tokenProvider as? StaticTokenProvider)?.value == "owner")
    let production = FirestoreSettings(environment: [:])
    #expect(production.host == "firestore.googleapis.com")
    #expect(production.isSSLEnabled)
  }

  @Test("a rejected token is an error naming the request, never the token")
  func rejectedToken() async throws {
    let db = Backend.emulator.firestore { s in s.tokenProvider = StaticTokenProvider("not-a-jwt-secret") }
    let error = try await #require(throws: FirestoreError.self) { try await db.document("tokens/b").getDocument() }
    #expect(error.code == .invalidArgument || error.code == .unauthenticated)
    #expect(error.httpStatus == 400 || error.httpStatus == 401)
    #expect(error.requestMethod == "GET")
    #expect(error.requestPath?.hasSuffix("/documents/tokens/b") == true)
    #expect(!error.description.contains("not-a-jwt-secret"))
  }
}
