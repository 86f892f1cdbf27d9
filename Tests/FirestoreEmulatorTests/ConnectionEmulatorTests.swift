import Foundation
import Synchronization
import Testing

@testable import FirestoreClient

@Suite("Emulator: connection", .enabled(if: Emulator.isAvailable))
struct ConnectionEmulatorTests {
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

  @Test("a named database is separate from the default one")
  func namedDatabase() async throws {
    let named = Emulator.firestore(database: "second-db")
    let path = "named/\(AutoID.make())"
    try await named.document(path).setData(["where": "second"])
    #expect(try await named.document(path).getDocument().get("where") as? String == "second")
    #expect(try await Emulator.db.document(path).getDocument().exists == false)
  }

  @Test("a closure token provider is asked for every request")
  func closureTokenProvider() async throws {
    let calls = Mutex(0)
    let db = Emulator.firestore { s in
      s.tokenProvider = ClosureTokenProvider { _ in
        calls.withLock { $0 += 1 }
        return "owner"
      }
    }
    try await db.document("tokens/a").setData(["x": 1])
    _ = try await db.document("tokens/a").getDocument()
    #expect(calls.withLock { $0 } == 2)
  }

  @Test("a rejected token is an error naming the request, never the token")
  func rejectedToken() async throws {
    let db = Emulator.firestore { s in s.tokenProvider = StaticTokenProvider("not-a-jwt-secret") }
    let error = try await #require(throws: FirestoreError.self) { try await db.document("tokens/b").getDocument() }
    #expect(error.code == .invalidArgument || error.code == .unauthenticated)
    #expect(error.httpStatus == 400 || error.httpStatus == 401)
    #expect(error.requestMethod == "GET")
    #expect(error.requestPath?.hasSuffix("/documents/tokens/b") == true)
    #expect(!error.description.contains("not-a-jwt-secret"))
  }

  @Test("the per-call timeout fails a call with deadlineExceeded")
  func perCallTimeout() async throws {
    // The emulator never answers a GET with ?transaction= (see protocol-rest.md), so the
    // deadline, not the server, ends this call.
    let db = Emulator.firestore { s in
      s.timeout = .milliseconds(500)
      s.retryPolicy = .none
    }
    let error = try await #require(throws: FirestoreError.self) {
      _ = try await db.rest.unary(.init(method: "GET", path: "documents/t/x", query: [("transaction", "AAAA")], idempotent: true))
    }
    #expect(error.code == .deadlineExceeded)
  }
}
