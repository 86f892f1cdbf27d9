import CommandLineSupport
import FirestoreClient
import FirestorePlatform
import FirestoreWire
import Foundation

/// `firestore listen PATH [query options] [--max-snapshots N] [--timeout SECONDS]`.
enum ListenCommand {
  static let command = Command(
    name: "listen", synopsis: "listen PATH [query options] [--max-snapshots N] [--timeout SECONDS]",
    summary: "Listen to a document or a query; one line per snapshot until stopped.",
    details: """
      PATH is a document (even number of segments) or a collection (query options apply).
      Each snapshot prints
        {"readTime":…,"fromCache":false,"hasPendingWrites":false,"size":N,
         "changes":[{"type":"added|modified|removed","path":…,"oldIndex":i,"newIndex":j,"data":{…}}]}
      It stops cleanly (exit 0) after N snapshots, after the timeout, or on Ctrl-C (SIGINT).
      A listen that got only snapshots from the cache (none from the server) because the
      Listen stream kept failing prints that failure on stderr when it stops and exits 1.

        firestore listen articles --where 'category == "swift"' --max-snapshots 3
        firestore listen users/u1 --timeout 60
      """,
    options: QueryOptions.specs + [
      OptionSpec(OptionName.maxSnapshots, "N", help: "stop after N snapshots"),
      OptionSpec(OptionName.timeout, "SECONDS", help: "stop after this many seconds"),
    ],
    arguments: 1...1
  ) { context in
    let arguments = context.arguments
    let maxSnapshots = try arguments.integer(OptionName.maxSnapshots, command: "listen")
    if maxSnapshots == 0 { throw context.usage("--max-snapshots must be at least 1") }
    let timeout = try arguments.seconds(OptionName.timeout, command: "listen")
    let target = context.positional(0)
    let segments = target.slashSegments.filter { !$0.isEmpty }.count
    let listener: @Sendable () async throws -> Void
    let heardServer = Locked(false)
    if !arguments.has(OptionName.group) && segments % 2 == 0 && segments > 0 {
      if QueryOptions.anyGiven(arguments) { throw context.usage("query options need a collection PATH, not the document '\(target)'") }
      let reference = context.db.document(try PathArgument.document(target, command: "listen"))
      listener = { try await listenToDocument(reference, context: context, limit: maxSnapshots, heardServer: heardServer) }
    } else {
      let query = try QueryOptions.query(context, target: target)
      listener = { try await listenToQuery(query, context: context, limit: maxSnapshots, heardServer: heardServer) }
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask(operation: listener)
      if let timeout { group.addTask { try await Task.sleep(for: timeout) } }
      group.addTask { await InterruptSignal.wait() }
      // Whichever ends first (enough snapshots, the timeout, a signal, or an error) ends the listen.
      defer { group.cancelAll() }
      try await group.next()
    }
    // The stream is retried after every failure, so the listen itself never fails on one;
    // a run that only ever saw the cache, its stream still down, says why instead of
    // passing for a quiet success.
    if !heardServer.withLock({ $0 }), let failure = await context.db.listenStreamError {
      throw FirestoreError(failure.code, "no snapshot came from the server; the Listen stream failed: \(failure.message)")
    }
  }

  private static func listenToQuery(_ query: Query, context: CommandContext, limit: Int?, heardServer: Locked<Bool>) async throws {
    let encoder = context.encoder
    var count = 0
    for try await snapshot in query.snapshots {
      let changes: [JSONValue] = snapshot.documentChanges.map { change in
        let type: String
        switch change.type {
        case .added: type = "added"
        case .modified: type = "modified"
        case .removed: type = "removed"
        }
        return .object([
          ("type", .string(type)), ("path", .string(change.document.reference.path)), ("oldIndex", .integer(Int64(change.oldIndex))),
          ("newIndex", .integer(Int64(change.newIndex))), (encoder.format.dataKey, encoder.fields(change.document.fields)),
        ])
      }
      if !snapshot.metadata.isFromCache { heardServer.withLock { $0 = true } }
      context.emit(line(readTime: snapshot.readTime, metadata: snapshot.metadata, size: snapshot.count, changes: changes))
      count += 1
      if let limit, count >= limit { return }
    }
  }

  private static func listenToDocument(_ reference: DocumentReference, context: CommandContext, limit: Int?, heardServer: Locked<Bool>)
    async throws
  {
    let encoder = context.encoder
    var count = 0
    var previous: [String: Value]?
    for try await snapshot in reference.snapshots {
      let current = snapshot.fields
      var change: (String, Int, Int, [String: Value])?
      switch (previous, current) {
      case (nil, let now?): change = ("added", -1, 0, now)
      case (let before?, nil): change = ("removed", 0, -1, before)
      case (let before?, let now?) where before != now: change = ("modified", 0, 0, now)
      default: change = nil
      }
      previous = current
      let changes: [JSONValue] =
        change.map { type, old, new, fields in
          [
            .object([
              ("type", .string(type)), ("path", .string(reference.path)), ("oldIndex", .integer(Int64(old))),
              ("newIndex", .integer(Int64(new))), (encoder.format.dataKey, encoder.fields(fields)),
            ])
          ]
        } ?? []
      if !snapshot.metadata.isFromCache { heardServer.withLock { $0 = true } }
      context.emit(line(readTime: snapshot.readTime, metadata: snapshot.metadata, size: current == nil ? 0 : 1, changes: changes))
      count += 1
      if let limit, count >= limit { return }
    }
  }

  private static func line(readTime: Timestamp?, metadata: SnapshotMetadata, size: Int, changes: [JSONValue]) -> JSONValue {
    .object([
      ("readTime", readTime.map { .string($0.rfc3339) } ?? .null), ("fromCache", .bool(metadata.isFromCache)),
      ("hasPendingWrites", .bool(metadata.hasPendingWrites)), ("size", .integer(Int64(size))), ("changes", .array(changes)),
    ])
  }
}
