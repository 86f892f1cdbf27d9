import FirestoreEngine
import FirestorePlatform
import FirestoreWire
import Foundation

/// All the mock's data and transactions, behind one lock.
///
/// Every operation runs synchronously on the calling connection's thread. Commits that
/// touch a document locked by another transaction wait on a condition variable, as the
/// emulator's pessimistic locks do, and fail with ABORTED after ``lockTimeout``; a
/// wait that would close a cycle of transactions aborts at once instead of timing out.
/// Both timeouts run on ``clock``.
final class MockStore: @unchecked Sendable {
  // @unchecked: every stored property below is only touched with `condition` held.
  private let condition = NSCondition()
  private var databases: [String: MockDatabase] = [:]
  private var transactions: [String: MockTransaction] = [:]
  private var lastTime = Timestamp(seconds: 0, nanoseconds: 0)
  /// How many commits are blocked in ``waitForLocks(on:transaction:)`` right now.
  private var lockWaiters = 0

  /// How long a commit waits for another transaction's lock before ABORTED.
  let lockTimeout: Duration
  /// How long an unused transaction lives before its locks are released.
  let transactionIdleTimeout: Duration
  /// How far back `readTime` may reach.
  let readTimeWindow: Int64 = 3600
  /// What ``lockTimeout`` and ``transactionIdleTimeout`` are measured on.
  let clock: MockClock

  init(lockTimeout: Duration = .seconds(2), transactionIdleTimeout: Duration = .seconds(30), clock: MockClock = .continuous) {
    self.lockTimeout = lockTimeout
    self.transactionIdleTimeout = transactionIdleTimeout
    self.clock = clock
  }

  /// How many commits are waiting for another transaction's lock at this moment.
  var commitsWaitingForLocks: Int {
    condition.lock()
    defer { condition.unlock() }
    return lockWaiters
  }

  /// Called, outside the store's lock, after every commit that carried writes and after
  /// every reset (Listen sessions re-evaluate the targets that read what changed).
  private let commitObservers = Locked<[@Sendable (_ database: String, _ changedPaths: Set<String>?) -> Void]>([])

  /// Registers a function called after each commit with writes and each reset, with the
  /// database's name and the paths written (below its documents root; `nil` after a reset,
  /// which changes every document). It runs on the committing thread, after the store's
  /// lock is released, so it may read the store.
  func addCommitObserver(_ observer: @escaping @Sendable (_ database: String, _ changedPaths: Set<String>?) -> Void) {
    commitObservers.withLock { $0.append(observer) }
  }

  private func notifyCommit(_ database: String, changedPaths: Set<String>?) {
    for observer in commitObservers.withLock({ $0 }) { observer(database, changedPaths) }
  }

  private func locked<T>(_ body: () throws(MockError) -> T) throws(MockError) -> T {
    condition.lock()
    defer { condition.unlock() }
    return try body()
  }

  /// A strictly increasing time with microsecond precision, as the emulator reports.
  private func nextTime() -> Timestamp {
    let now = Date().timeIntervalSince1970
    let micros = Int64(now * 1_000_000)
    var t = Timestamp(seconds: micros / 1_000_000, nanoseconds: Int32(micros % 1_000_000) * 1000)
    if t <= lastTime { t = Timestamp(seconds: lastTime.seconds, nanoseconds: lastTime.nanoseconds + 1000) }
    lastTime = t
    return t
  }

  private func database(_ name: String) -> MockDatabase {
    databases[name] ?? MockDatabase(documentsRoot: name + "/documents")
  }

  // MARK: - Reset

  /// Deletes every document of a database, as the emulator's reset endpoint does.
  func reset(database name: String) {
    condition.lock()
    databases[name] = nil
    for (id, tx) in transactions where tx.database == name { transactions[id] = nil }
    condition.broadcast()
    condition.unlock()
    notifyCommit(name, changedPaths: nil)
  }

  // MARK: - Reads

  /// A fresh read time, later than every commit applied so far: reading at it (with
  /// ``ReadConsistency/readTime(_:)``) sees a consistent snapshot of every database.
  func readTime() -> Timestamp {
    condition.lock()
    defer { condition.unlock() }
    return nextTime()
  }

  /// The snapshot a read sees, after applying its consistency selector.
  struct ReadContext {
    var time: Timestamp?
    var transaction: String?
    var newTransaction: String?
    var readTime: Timestamp
  }

  private func readContext(_ db: String, _ consistency: ReadConsistency?) throws(MockError) -> ReadContext {
    expireIdleTransactions()
    let now = nextTime()
    switch consistency {
    case nil:
      return ReadContext(time: nil, transaction: nil, newTransaction: nil, readTime: now)
    case .readTime(let t):
      try checkReadTime(t, now: now)
      return ReadContext(time: t, transaction: nil, newTransaction: nil, readTime: t)
    case .transaction(let id):
      guard var tx = transactions[id], tx.database == db else { throw .invalidArgument("Invalid transaction.") }
      tx.lastUsed = clock.now
      transactions[id] = tx
      let time = tx.readOnly ? tx.readTime : nil
      return ReadContext(time: time, transaction: tx.readOnly ? nil : id, newTransaction: nil, readTime: time ?? now)
    case .newTransaction(let options):
      let id = try begin(db, options: options, now: now)
      let tx = transactions[id]!
      let time = tx.readOnly ? tx.readTime : nil
      return ReadContext(time: time, transaction: tx.readOnly ? nil : id, newTransaction: id, readTime: time ?? now)
    }
  }

  private func checkReadTime(_ t: Timestamp, now: Timestamp) throws(MockError) {
    if t.seconds < now.seconds - readTimeWindow {
      throw MockError(.failedPrecondition, "The requested 'read_time' is too old.")
    }
    if t > now { throw .invalidArgument("read_time is in the future.") }
  }

  /// Reads documents by path; missing ones are `nil`. Read-write transactions lock them.
  func get(_ db: String, paths: [String], consistency: ReadConsistency?) throws(MockError) -> (
    documents: [(String, Document?)], context: ReadContext
  ) {
    try locked { () throws(MockError) in
      let context = try readContext(db, consistency)
      let database = database(db)
      if let id = context.transaction { transactions[id]?.locks.formUnion(paths) }
      return (paths.map { ($0, database.document($0, at: context.time)) }, context)
    }
  }

  /// Every document directly in `collectionID` under `parent` (or, with `allDescendants`,
  /// in any collection with that ID at any depth below it), sorted by key.
  func candidates(
    _ db: String, parent: String, selectors: [StructuredQuery.CollectionSelector], consistency: ReadConsistency?
  ) throws(MockError) -> (documents: [Document], context: ReadContext) {
    try locked { () throws(MockError) in
      let context = try readContext(db, consistency)
      // Ordered where the database is stored: ordering a copy would copy its tables.
      let paths = databases[db]?.pathsInKeyOrder() ?? []
      let database = database(db)
      let prefix = parent.isEmpty ? "" : parent + "/"
      var documents: [Document] = []
      for path in paths
      where path.hasBytePrefix(prefix) && StructuredQuery.reads(selectors, documentAt: path, under: parent) {
        if let doc = database.document(path, at: context.time) { documents.append(doc) }
      }
      return (documents, context)
    }
  }

  /// Every document of the database, in key order.
  func everyDocument(_ db: String, consistency: ReadConsistency?) throws(MockError) -> (
    documents: [Document], context: ReadContext
  ) {
    try locked { () throws(MockError) in
      let context = try readContext(db, consistency)
      let database = database(db)
      let documents = (databases[db]?.pathsInKeyOrder() ?? []).compactMap { database.document($0, at: context.time) }
      return (documents, context)
    }
  }

  /// Locks the documents a transactional query returned.
  func lock(_ paths: [String], transaction: String?) {
    guard let transaction else { return }
    condition.lock()
    transactions[transaction]?.locks.formUnion(paths)
    condition.unlock()
  }

  // MARK: - Transactions

  func begin(_ db: String, options: TransactionOptions) throws(MockError) -> String {
    try locked { () throws(MockError) in
      expireIdleTransactions()
      return try begin(db, options: options, now: nextTime())
    }
  }

  private func begin(_ db: String, options: TransactionOptions, now: Timestamp) throws(MockError) -> String {
    var bytes = [UInt8](repeating: 0, count: 9)
    for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
    let id = Data(bytes).base64EncodedString()
    switch options {
    case .readOnly(let readTime):
      if let readTime { try checkReadTime(readTime, now: now) }
      transactions[id] = MockTransaction(id: id, database: db, readOnly: true, readTime: readTime ?? now, lastUsed: clock.now)
    case .readWrite(let retrying):
      // A retry inherits nothing, but the aborted attempt it replaces is finished for good.
      if let retrying { transactions[retrying] = nil }
      transactions[id] = MockTransaction(id: id, database: db, readOnly: false, readTime: nil, lastUsed: clock.now)
    }
    return id
  }

  /// Ends a transaction without writing; unknown IDs are INVALID_ARGUMENT, finished ones fine.
  func rollback(_ db: String, id: String) throws(MockError) {
    try locked { () throws(MockError) in
      if transactions.removeValue(forKey: id) != nil {
        condition.broadcast()
        return
      }
      if !finished.contains(id) { throw .invalidArgument("Invalid transaction.") }
    }
  }

  /// IDs of transactions that committed or were rolled back (rollback of those succeeds).
  private var finished: Set<String> = []

  private func finish(_ id: String) {
    transactions[id] = nil
    finished.insert(id)
    if finished.count > 10_000 { finished.removeAll() }
    condition.broadcast()
  }

  private func expireIdleTransactions() {
    let now = clock.now
    var expired = false
    for (id, tx) in transactions where now - tx.lastUsed > transactionIdleTimeout {
      transactions[id] = nil
      expired = true
    }
    if expired { condition.broadcast() }
  }

  // MARK: - Commit

  /// Applies writes atomically; waits for locks held by other transactions.
  func commit(_ db: String, writes: [Write], transaction: String?) throws(MockError) -> CommitResponse {
    let (response, paths) = try applyCommit(db, writes: writes, transaction: transaction)
    if !writes.isEmpty { notifyCommit(db, changedPaths: Set(paths)) }
    return response
  }

  /// Applies `writes` under the store's lock; returns the response and the paths written.
  private func applyCommit(
    _ db: String, writes: [Write], transaction: String?
  ) throws(MockError) -> (response: CommitResponse, paths: [String]) {
    try locked { () throws(MockError) in
      if let transaction {
        guard let tx = transactions[transaction], tx.database == db else {
          throw .invalidArgument("Invalid transaction.")
        }
        if tx.readOnly && !writes.isEmpty {
          throw .invalidArgument("Cannot modify entities in a read-only transaction.")
        }
      }
      let paths = try writes.map { w throws(MockError) in try relativePath(w.documentName, db: db) }
      try waitForLocks(on: Set(paths), transaction: transaction)
      let commitTime = nextTime()
      var results: [CommitResponse.WriteResult] = []
      var staged: [String: DocumentVersion?] = [:]
      var upserted: Set<String> = []
      for (write, path) in zip(writes, paths) {
        let before: DocumentVersion? = staged[path] ?? databases[db]?.histories[path]?.current
        try check(write.currentDocument, before: before, path: path, db: db)
        switch write.operation {
        case .delete:
          if upserted.contains(path) {
            throw .invalidArgument("Cannot upsert then delete an entity in the same request.")
          }
          staged[path] = .some(nil)
          results.append(.init(updateTime: nil))
        case .update(let doc):
          try VectorRules.validate(fields: doc.fields)
          upserted.insert(path)
          var fields = before?.fields ?? [:]
          if let mask = write.updateMask {
            var paths: [[String]] = []
            for canonical in mask { paths.append(try fieldPath(canonical)) }
            FieldMap.applyMask(paths, from: doc.fields, to: &fields)
          } else {
            fields = doc.fields
          }
          let transformResults = try apply(write.updateTransforms, to: &fields, at: commitTime)
          staged[path] = DocumentVersion(fields: fields, createTime: before?.createTime ?? commitTime, updateTime: commitTime)
          results.append(.init(updateTime: commitTime, transformResults: transformResults))
        case .transform:
          upserted.insert(path)
          var fields = before?.fields ?? [:]
          let transformResults = try apply(write.updateTransforms, to: &fields, at: commitTime)
          staged[path] = DocumentVersion(fields: fields, createTime: before?.createTime ?? commitTime, updateTime: commitTime)
          results.append(.init(updateTime: commitTime, transformResults: transformResults))
        }
      }
      // Apply only after every precondition held: the commit is atomic. The database is
      // changed where it is stored, never through a copy: a copy would share the document
      // table, and the first write to it would duplicate every document.
      if !staged.isEmpty {
        // Versions older than the readTime window can never be read again.
        let horizon = Timestamp(seconds: commitTime.seconds - readTimeWindow, nanoseconds: 0)
        databases[db, default: MockDatabase(documentsRoot: db + "/documents")].apply(staged, at: commitTime, pruningBefore: horizon)
      }
      for (i, path) in paths.enumerated() where results[i].updateTime != nil {
        if let version = databases[db]?.histories[path]?.current { results[i].updateTime = version.updateTime }
      }
      if let transaction { finish(transaction) }
      return (CommitResponse(writeResults: results, commitTime: writes.isEmpty && transaction != nil ? nil : commitTime), paths)
    }
  }

  private func check(_ precondition: Precondition?, before: DocumentVersion?, path: String, db: String) throws(MockError) {
    switch precondition {
    case nil: return
    case .exists(true):
      if before == nil { throw MockError(.notFound, "no entity to update: \(path)") }
    case .exists(false):
      if before != nil {
        throw MockError(.alreadyExists, "entity already exists: \(db)/documents/\(path)")
      }
    case .updateTime(let t):
      guard let before else { throw MockError(.notFound, "no entity to update: \(path)") }
      if before.updateTime != t {
        throw MockError(
          .failedPrecondition, "the stored version (\(before.updateTime.rfc3339)) does not match the required base version (\(t.rfc3339))")
      }
    }
  }

  private func apply(_ transforms: [FieldTransform], to fields: inout [String: Value], at time: Timestamp) throws(MockError) -> [Value] {
    var results: [Value] = []
    for transform in transforms {
      let segments = try fieldPath(transform.fieldPath)
      let (newValue, result) = TransformEvaluator.apply(transform.kind, to: FieldMap.get(fields, segments), requestTime: time)
      FieldMap.set(&fields, segments, newValue)
      results.append(result)
    }
    return results
  }

  /// Waits until no other live transaction holds a lock on `paths`.
  private func waitForLocks(on paths: Set<String>, transaction: String?) throws(MockError) {
    let deadline = clock.now + lockTimeout
    var waiting = false
    defer { if waiting { lockWaiters -= 1 } }
    while true {
      expireIdleTransactions()
      let holders = Set(transactions.values.filter { $0.id != transaction && !$0.locks.isDisjoint(with: paths) }.map(\.id))
      if holders.isEmpty {
        if let transaction { transactions[transaction]?.waitingOn = [] }
        return
      }
      if let transaction {
        // A holder that waits for us would wait forever: abort this transaction now.
        if holders.contains(where: { transactions[$0]?.waitingOn.contains(transaction) == true }) {
          transactions[transaction] = nil
          condition.broadcast()
          throw MockError(.aborted, "Transaction lock timeout.")
        }
        transactions[transaction]?.waitingOn = holders
        transactions[transaction]?.lastUsed = clock.now
      }
      if clock.now >= deadline {
        if let transaction {
          transactions[transaction] = nil
          condition.broadcast()
        }
        throw MockError(.aborted, "Transaction lock timeout.")
      }
      if !waiting {
        waiting = true
        lockWaiters += 1
      }
      // Polled: nothing signals a deadline passing, on either kind of clock.
      _ = condition.wait(until: Date().addingTimeInterval(0.05))
    }
  }

  // MARK: - Listing

  /// Documents directly in a collection (and, with `showMissing`, paths that only have
  /// subcollections), sorted by key, as of the read `consistency` selects.
  func list(
    _ db: String, collection: String, showMissing: Bool, consistency: ReadConsistency? = nil
  ) throws(MockError) -> [(path: String, document: Document?)] {
    try locked { () throws(MockError) in
      let time = try readContext(db, consistency).time
      let paths = databases[db]?.existingPaths(at: time) ?? []
      let database = database(db)
      let depth = collection.slashSegments.count + 1
      var present: [String: Document?] = [:]
      for path in paths where path.hasBytePrefix(collection + "/") {
        let segments = path.slashSegments
        let child = segments.prefix(depth).joined(separator: "/")
        if segments.count == depth {
          present[child] = database.document(path, at: time)
        } else if showMissing, present[child] == nil {
          present[child] = .some(nil)
        }
      }
      return present.keys.sorted(by: MockDatabase.keyOrder).map { ($0, present[$0]!) }
    }
  }

  /// The IDs of collections directly under `parent` ("" for the root) that hold documents
  /// at any depth, as of the read `consistency` selects.
  func collectionIDs(_ db: String, parent: String, consistency: ReadConsistency? = nil) throws(MockError) -> [String] {
    try locked { () throws(MockError) in
      let time = try readContext(db, consistency).time
      let prefix = parent.isEmpty ? "" : parent + "/"
      let depth = parent.isEmpty ? 0 : parent.slashSegments.count
      var ids = Set<String>()
      for path in databases[db]?.existingPaths(at: time) ?? [] where path.hasBytePrefix(prefix) {
        let segments = path.slashSegments
        if segments.count > depth { ids.insert(String(segments[depth])) }
      }
      return ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
  }

  // MARK: - Names

  /// `projects/p/databases/d/documents/a/b` → `a/b`, for a name in database `db`.
  func relativePath(_ name: String, db: String) throws(MockError) -> String {
    let prefix = db + "/documents/"
    guard let path = name.removingBytePrefix(prefix), !path.isEmpty else {
      throw .invalidArgument("Document name \"\(name)\" is not in database \(db).")
    }
    let segments = path.slashSegments
    guard segments.count % 2 == 0, !segments.contains(where: \.isEmpty) else {
      throw .invalidArgument("Document name \"\(name)\" has invalid trailing path.")
    }
    // As the emulator: `__…__` is reserved, but for numeric IDs (`__id42__`).
    if let reserved = segments.first(where: { FieldPathParser.isReserved(String($0)) && ValueOrdering.numericID($0.utf8) == nil }) {
      throw .invalidArgument("Resource id \"\(reserved)\" is invalid because it is reserved.")
    }
    return path
  }

  private func fieldPath(_ canonical: String) throws(MockError) -> [String] {
    do {
      return try CanonicalFieldPath.decode(canonical)
    } catch {
      throw .invalidArgument("Invalid property path \"\(canonical)\".")
    }
  }
}
