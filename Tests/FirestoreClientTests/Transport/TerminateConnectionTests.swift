import FirestoreMock
import Foundation
import Testing

@testable import FirestoreClient

/// `terminate()` closes the connections its transport kept for reuse.
@Suite struct TerminateConnectionTests {
  /// The sockets of this process connected to `port` on the other end (the client's side
  /// of its connections to a server in this process), from `/proc`.
  static func socketsConnected(toPort port: Int) throws -> Int {
    let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    var inodes = Set<String>()
    for fd in fds {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd),
        target.hasPrefix("socket:[")
      else { continue }
      inodes.insert(String(target.dropFirst(8).dropLast()))
    }
    let hexPort = String(format: ":%04X", port)
    var count = 0
    for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
      // Read to the end: /proc files report a size of 0.
      guard let data = FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() else { continue }
      let text = String(decoding: data, as: UTF8.self)
      for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        // sl, local address, remote address, state, queues, timer, retransmits, uid, timeout, inode
        guard fields.count > 9, fields[2].hasSuffix(hexPort), inodes.contains(String(fields[9])) else { continue }
        count += 1
      }
    }
    return count
  }

  @Test("after many concurrent reads over HTTP/1.1, terminate() leaves no socket open")
  func terminateClosesKeptConnections() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.transport = CurlTransport()
    settings.cache = .none
    let db = Firestore(projectID: "p", settings: settings)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for i in 0..<100 {
        group.addTask { _ = try await db.document("c/d\(i)").getDocument(source: .server) }
      }
      try await group.waitForAll()
    }
    let kept = try Self.socketsConnected(toPort: server.port)
    #expect(kept > 1, "the reads should have left connections to reuse")
    try await db.terminate()
    #expect(try Self.socketsConnected(toPort: server.port) == 0)
  }
}
