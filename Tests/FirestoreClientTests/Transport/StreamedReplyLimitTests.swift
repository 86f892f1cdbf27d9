import Dispatch
import FirestorePlatform
import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient
@testable import FirestoreMock

/// Streamed reads (`stream()`, and the CLI's `query` and `export` through it) against
/// servers that stall or send without end: each ends with the error the unary path gives,
/// within the same limits, and memory stays bounded.
@Suite struct StreamedReplyLimitTests {
  static let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
  static let document = #"{"document":{"name":"projects/p/databases/(default)/documents/c/a","fields":{}}}"#
  /// An element that opens a string and never closes it.
  static let endlessStart = #"{"document":{"name":"projects/p/databases/(default)/documents/c/b","fields":{"s":{"stringValue":""#
  /// The limit the tests set, so that no test sends 256 MB.
  static let limit = 1 << 20

  /// A client of `server` over a transport of its own, with one attempt per call.
  func firestore(_ server: RawHTTPServer, timeout: Duration = .seconds(60)) -> Firestore {
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:\(server.port)")
    settings.transport = CurlTransport()
    settings.retryPolicy = RetryPolicy(maximumAttempts: 1)
    settings.timeout = timeout
    settings.maximumReplyBytes = Self.limit
    settings.cache = .none
    return Firestore(projectID: "p", settings: settings)
  }

  /// Writes `bytes` of `a` in pieces (a string that never ends), at most four times the
  /// limit: past that, without a limit of its own, the client would see the reply cut short.
  static func writeEndlessString(_ connection: RawHTTPServer.Connection) {
    let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
    for _ in 0..<(4 * limit / piece.count) where connection.write(bytes: piece) {}
  }

  /// Reads the stream to its end; the documents it handed out and how it ended.
  func drain(_ db: Firestore) async -> (documents: Int, error: FirestoreError?) {
    var documents = 0
    do {
      for try await _ in db.collection("c").stream() { documents += 1 }
      return (documents, nil)
    } catch {
      return (documents, error as? FirestoreError)
    }
  }

  @Test("one document, then silence: the read ends at the idle deadline")
  func stallAfterTheFirstDocument() async throws {
    // The idle deadline is FirestoreSettings.timeout, real time; a run counts once the
    // first document arrived within it. The server's close after 30 s only catches a hang
    // (the read would then end cut short, as unavailable).
    try await withGrowingMargin("the first document arriving before the deadline", from: .milliseconds(300)) { margin in
      let release = DispatchSemaphore(value: 0)
      let server = try RawHTTPServer { connection, _ in
        guard connection.readRequest() != nil else { return }
        connection.write(Self.head + "[" + Self.document + ",")
        _ = release.wait(timeout: .now() + 30)
      }
      defer {
        release.signal()
        server.stop()
      }
      let (documents, error) = await drain(firestore(server, timeout: margin))
      #expect(error?.code == .deadlineExceeded, "\(String(describing: error))")
      // The first document can arrive so close to the call's deadline that the deadline
      // ends the call before the reader lifts it: that run proves nothing about the idle one.
      guard documents == 1, error?.message.contains("did not finish by its deadline") == false else { return .tooShort }
      #expect(error?.message.contains("sent nothing") == true, "\(String(describing: error))")
      return .conclusive
    }
  }

  @Test("one document, then bytes that complete none: the read ends at the idle deadline")
  func tricklingAfterTheFirstDocument() async throws {
    // White space between elements keeps the connection busy and is never kept, so only
    // the wait for the next element can end the read. The server stops after 16 GB (the
    // read would then end cut short, as unavailable), which only catches a hang.
    try await withGrowingMargin("the first document arriving before the deadline", from: .milliseconds(300)) { margin in
      let server = try RawHTTPServer { connection, _ in
        guard connection.readRequest() != nil else { return }
        connection.write(Self.head + "[" + Self.document + ",")
        let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64 << 10)
        for _ in 0..<(16 << 30) / spaces.count where connection.write(bytes: spaces) {}
      }
      defer { server.stop() }
      let (documents, error) = await drain(firestore(server, timeout: margin))
      #expect(error?.code == .deadlineExceeded, "\(String(describing: error))")
      // The first document can arrive so close to the call's deadline that the deadline
      // ends the call before the reader lifts it: that run proves nothing about the idle one.
      guard documents == 1, error?.message.contains("did not finish by its deadline") == false else { return .tooShort }
      #expect(error?.message.contains("next element") == true, "\(String(describing: error))")
      return .conclusive
    }
  }

  @Test("one document, then one that never ends: the read ends at the size limit")
  func endlessElementAfterTheFirstDocument() async throws {
    let server = try RawHTTPServer { connection, _ in
      guard connection.readRequest() != nil else { return }
      connection.write(Self.head + "[" + Self.document + "," + Self.endlessStart)
      Self.writeEndlessString(connection)
    }
    defer { server.stop() }
    let (documents, error) = await drain(firestore(server))
    #expect(documents == 1)
    #expect(error?.code == .resourceExhausted, "\(String(describing: error))")
    #expect(error?.message.contains("exceeds \(Self.limit) bytes") == true, "\(String(describing: error))")
  }

  @Test("a huge body before the first element ends at the size limit", arguments: ["[" + endlessStart, #"{"error":""#])
  func hugeBodyBeforeTheFirstElement(opening: String) async throws {
    let server = try RawHTTPServer { connection, _ in
      guard connection.readRequest() != nil else { return }
      connection.write(Self.head + opening)
      Self.writeEndlessString(connection)
    }
    defer { server.stop() }
    let (documents, error) = await drain(firestore(server))
    #expect(documents == 0)
    #expect(error?.code == .resourceExhausted, "\(String(describing: error))")
  }

  @Test("a gzip bomb is counted decompressed, before it is kept")
  func gzipBomb() async throws {
    // 4 MB of one string that compress to a few kilobytes.
    let plain = Array(("[" + Self.endlessStart).utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 4 * Self.limit)
    let compressed = try #require(Gzip.compress(plain))
    let server = try RawHTTPServer { connection, _ in
      guard connection.readRequest() != nil else { return }
      connection.write(Self.head.replacingOccurrences(of: "\r\n\r\n", with: "\r\nContent-Encoding: gzip\r\n\r\n"))
      connection.write(bytes: compressed)
    }
    defer { server.stop() }
    #expect(compressed.count < Self.limit / 16)
    let (documents, error) = await drain(firestore(server))
    #expect(documents == 0)
    #expect(error?.code == .resourceExhausted, "\(String(describing: error))")
  }

  @Test("a unary read keeps the same limit, with the same error")
  func unaryReadKeepsTheSameLimit() async throws {
    let server = try RawHTTPServer { connection, _ in
      guard connection.readRequest() != nil else { return }
      connection.write(Self.head + Self.endlessStart)
      Self.writeEndlessString(connection)
    }
    defer { server.stop() }
    let error = await #expect(throws: FirestoreError.self) {
      _ = try await firestore(server).collection("c").getDocuments()
    }
    #expect(error?.code == .resourceExhausted, "\(String(describing: error))")
    #expect(error?.message.contains("exceeds \(Self.limit) bytes") == true, "\(String(describing: error))")
  }

  @Test("a reply past the limit is not asked for again: the retry policy that retries resourceExhausted does not retry it")
  func overLimitIsNotRetried() async throws {
    let requests = Locked(0)
    let server = try RawHTTPServer { connection, _ in
      guard connection.readRequest() != nil else { return }
      requests.withLock { $0 += 1 }
      connection.write(Self.head + Self.endlessStart)
      Self.writeEndlessString(connection)
    }
    defer { server.stop() }
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:\(server.port)")
    settings.transport = CurlTransport()
    settings.retryPolicy = RetryPolicy(initialBackoff: .zero)
    settings.maximumReplyBytes = Self.limit
    settings.cache = .none
    let db = Firestore(projectID: "p", settings: settings)
    let unary = await #expect(throws: FirestoreError.self) { _ = try await db.collection("c").getDocuments() }
    #expect(unary?.code == .resourceExhausted)
    let (_, streamed) = await drain(db)
    #expect(streamed?.code == .resourceExhausted)
    #expect(requests.value == 2, "one request per call")
  }
}
