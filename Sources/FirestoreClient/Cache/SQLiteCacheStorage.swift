import FirestorePlatform
import FirestoreWire
import Foundation

/// Documents, the paths known to hold none, and pending write batches in an SQLite file, so
/// that they outlive the process.
///
/// Every change is one SQLite transaction, in write-ahead-log mode with `synchronous=NORMAL`:
/// a crash or power loss may lose the last changes but never leaves a half-written one.
/// Opening checks the file's format marker, schema version and integrity
/// (`PRAGMA quick_check`) and throws when any is wrong; the store then rebuilds.
///
/// Reads record their use in memory; it reaches the file with the next change (or after
/// many reads), so reading costs no disk write.
///
/// Several instances (connections) may share one file, so the total size of the entries
/// (documents and missing ones) is kept in the file (the `bytes` row of `meta`), read and
/// updated inside each change's transaction, never only in this connection's memory.
///
/// The file also holds the field indexes (``SQLiteFieldIndexes``), whose entries change in
/// the same transactions as the documents they index.
final class SQLiteCacheStorage: CacheStorage {
  /// Marks a file as this client's cache.
  static let format = "swift-firestore-cache"
  /// The schema version; a file with another one is rebuilt. (Tables added since, the
  /// queue of writes, the bundles and the field indexes, are created when missing: older
  /// files gain them.)
  static let schemaVersion = "1"
  /// Uses recorded in memory beyond which they are written out without waiting for a change.
  private static let touchFlushThreshold = 4096

  /// The `meta` key of the total size of the entries, kept by every change.
  private static let totalKey = "bytes"

  /// The paths the server found no document at, and when (`NULL` when it did not say): kept
  /// apart from `documents`, whose rows the field indexes and their triggers read as
  /// documents. They count for size and eviction as the documents do.
  private static let missingTable = """
    CREATE TABLE IF NOT EXISTS missing_documents (
      path TEXT PRIMARY KEY, size INTEGER NOT NULL, last_use INTEGER NOT NULL, read_seconds INTEGER, read_nanos INTEGER);
    CREATE INDEX IF NOT EXISTS missing_documents_by_last_use ON missing_documents (last_use);
    """

  /// The entries' total size and latest use: a scan, for opening a file.
  private static let totalsQuery = """
    SELECT COALESCE(SUM(size), 0), COALESCE(MAX(last_use), 0)
    FROM (SELECT size, last_use FROM documents UNION ALL SELECT size, last_use FROM missing_documents)
    """
  /// The latest use of any entry, read through the tables' `last_use` indexes.
  private static let latestUseQuery = """
    SELECT MAX((SELECT COALESCE(MAX(last_use), 0) FROM documents), (SELECT COALESCE(MAX(last_use), 0) FROM missing_documents))
    """
  /// A page of the least recently used entries after a last use (given twice): each table's
  /// page through its index, merged.
  private static let evictionPageQuery = """
    SELECT path, size, last_use FROM (SELECT path, size, last_use FROM documents WHERE last_use > ? ORDER BY last_use LIMIT 64)
    UNION ALL
    SELECT path, size, last_use FROM (SELECT path, size, last_use FROM missing_documents WHERE last_use > ? ORDER BY last_use LIMIT 64)
    ORDER BY last_use LIMIT 64
    """

  /// The write batches not yet settled: their commit request body (`{"writes": […]}`), the
  /// instance holding them, when they were made, whether an attempt may have reached the
  /// server, and the user who made them (``TokenUser/storageKey``; `NULL` when not known).
  private static let mutationsTable = """
    CREATE TABLE IF NOT EXISTS mutations (
      id INTEGER PRIMARY KEY, owner TEXT NOT NULL, writes BLOB NOT NULL,
      write_seconds INTEGER NOT NULL, write_nanos INTEGER NOT NULL, attempted INTEGER NOT NULL, user TEXT);
    """

  let sizeLimit: Int
  /// The total this connection last read or wrote, for when the file cannot be read.
  private var lastKnownByteCount = 0
  private let connection: SQLiteConnection
  /// The field indexes in the file, kept in this storage's transactions.
  private let indexes: SQLiteFieldIndexes
  private var clock: Int64 = 0
  /// Last-use ticks of documents read since the last write.
  private var touches: [String: Int64] = [:]
  /// Last-use ticks of missing entries read since the last write.
  private var missingTouches: [String: Int64] = [:]

  /// Opens or creates the cache file at `path`.
  init(path: String, sizeLimit: Int) throws(CacheStorageError) {
    self.sizeLimit = sizeLimit
    connection = try SQLiteConnection(path: path)
    indexes = SQLiteFieldIndexes(connection: connection)
    do {
      try openOrCreate()
    } catch {
      connection.close()
      throw error
    }
  }

  /// The bytes of documents in the file now, counting other instances' changes.
  var byteCount: Int {
    if let total = try? storedTotal() { lastKnownByteCount = total }
    return lastKnownByteCount
  }

  /// Closes the file; later calls fail. The store calls it before deleting the file.
  func close() { connection.close() }

  /// Deletes the cache file at `path` and SQLite's side files.
  static func remove(path: String) {
    for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }

  private func openOrCreate() throws(CacheStorageError) {
    let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.text }
    try connection.query("PRAGMA journal_mode = WAL")
    try connection.execute("PRAGMA synchronous = NORMAL")
    if tables.isEmpty {
      try connection.execute(
        """
        BEGIN IMMEDIATE;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE documents (
          path TEXT PRIMARY KEY, collection TEXT NOT NULL, collection_id TEXT NOT NULL,
          body BLOB NOT NULL, size INTEGER NOT NULL, last_use INTEGER NOT NULL,
          update_seconds INTEGER, update_nanos INTEGER);
        CREATE INDEX documents_by_collection ON documents (collection);
        CREATE INDEX documents_by_collection_id ON documents (collection_id, collection);
        CREATE INDEX documents_by_last_use ON documents (last_use);
        \(Self.mutationsTable)
        \(Self.bundleTables)
        \(Self.missingTable)
        \(SQLiteFieldIndexes.schema)
        INSERT INTO meta VALUES ('format', '\(Self.format)'), ('schema', '\(Self.schemaVersion)'), ('\(Self.totalKey)', '0');
        COMMIT;
        """)
      return
    }
    guard tables.contains("meta"), tables.contains("documents") else {
      throw CacheStorageError(description: "\(connection.path) is not a swift-firestore cache (tables: \(tables.sorted()))")
    }
    let meta = try connection.query("SELECT key, value FROM meta")
    var values: [String: String] = [:]
    for row in meta where row.count == 2 { if let k = row[0].text, let v = row[1].text { values[k] = v } }
    guard values["format"] == Self.format else {
      throw CacheStorageError(description: "\(connection.path) is not a swift-firestore cache")
    }
    guard values["schema"] == Self.schemaVersion else {
      throw CacheStorageError(
        description: "\(connection.path) has cache schema \(values["schema"] ?? "none"), this client uses \(Self.schemaVersion)")
    }
    let check = try connection.query("PRAGMA quick_check").compactMap { $0.first?.text }
    guard check == ["ok"] else {
      throw CacheStorageError(description: "\(connection.path) failed its integrity check: \(check.prefix(3).joined(separator: "; "))")
    }
    // Files written before bundles, queued writes and missing documents were kept lack
    // their tables, added here.
    try connection.execute(Self.bundleTables)
    try connection.execute(Self.mutationsTable)
    try connection.execute(Self.missingTable)
    // A queue written before batches kept their user gains the column; its rows' user is
    // not known (`NULL`).
    let columns = try connection.query("PRAGMA table_info(mutations)").compactMap { $0.count > 1 ? $0[1].text : nil }
    if !columns.contains("user") { try connection.execute("ALTER TABLE mutations ADD COLUMN user TEXT") }
    // Files written before field indexes lack their tables; damaged ones are made again.
    try indexes.prepareSchema()
    let sql = Self.totalsQuery
    let totals: [[SQLiteConnection.Column]]
    do {
      // The entries' sum also corrects a stored total that a writer without one (an
      // earlier version of this client) left behind.
      totals = try connection.inTransaction { () throws(CacheStorageError) in
        let totals = try connection.query(sql)
        let sum = totals.first?[0].integer ?? 0
        try connection.query("INSERT OR REPLACE INTO meta VALUES (?, ?)", [.text(Self.totalKey), .text(String(sum))])
        return totals
      }
    } catch  where !error.isCorruption {
      totals = try connection.query(sql)  // locked by another instance: its total stands
    }
    lastKnownByteCount = Int(totals.first?[0].integer ?? 0)
    clock = totals.first?[1].integer ?? 0
  }

  /// The tables of loaded bundles and their named queries.
  private static let bundleTables = """
    CREATE TABLE IF NOT EXISTS bundles (id TEXT PRIMARY KEY, create_seconds INTEGER NOT NULL, create_nanos INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS named_queries (name TEXT PRIMARY KEY, body BLOB NOT NULL);
    """

  /// The total size of the entries as the file records it; a file written before the
  /// total was kept has none, so its entries are summed (the next change stores it).
  private func storedTotal() throws(CacheStorageError) -> Int {
    let rows = try connection.query("SELECT value FROM meta WHERE key = ?", [.text(Self.totalKey)])
    if let text = rows.first?.first?.text, let total = Int(text) { return total }
    return Int(try connection.query(Self.totalsQuery).first?.first?.integer ?? 0)
  }

  private func tick() -> Int64 {
    clock += 1
    return clock
  }

  private func decode(_ column: SQLiteConnection.Column?, path: String) throws(CacheStorageError) -> Document {
    guard case .blob(let bytes)? = column else {
      throw CacheStorageError(description: "cached document \(path) has no body")
    }
    do {
      return try Document(json: JSONParser.parse(bytes))
    } catch {
      throw CacheStorageError(description: "cached document \(path) does not parse: \(error)")
    }
  }

  func entry(at path: String) throws(CacheStorageError) -> CacheEntry? {
    if let row = try connection.query("SELECT body FROM documents WHERE path = ?", [.text(path)]).first {
      let document = try decode(row.first, path: path)
      try touch([path])
      return .document(document)
    }
    let missing = try connection.query("SELECT read_seconds, read_nanos FROM missing_documents WHERE path = ?", [.text(path)])
    guard let row = missing.first else { return nil }
    try touch([path], missing: true)
    return .missing(Self.timestamp(row))
  }

  func version(at path: String) throws(CacheStorageError) -> Timestamp? {
    let rows = try connection.query("SELECT update_seconds, update_nanos FROM documents WHERE path = ?", [.text(path)])
    if let row = rows.first { return Self.timestamp(row) }
    return Self.timestamp(
      try connection.query("SELECT read_seconds, read_nanos FROM missing_documents WHERE path = ?", [.text(path)]).first)
  }

  /// The time in a row's (seconds, nanoseconds) columns, `nil` when they are `NULL`.
  private static func timestamp(_ row: [SQLiteConnection.Column]?) -> Timestamp? {
    guard let row, row.count == 2, let seconds = row[0].integer, let nanos = row[1].integer else { return nil }
    return Timestamp(seconds: seconds, nanoseconds: Int32(truncatingIfNeeded: nanos))
  }

  /// The arguments that store `time` in (seconds, nanoseconds) columns.
  private static func timestampArguments(_ time: Timestamp?) -> [SQLiteConnection.Argument] {
    time.map { [.integer($0.seconds), .integer(Int64($0.nanoseconds))] } ?? [.null, .null]
  }

  /// Records a use of `paths` (of documents, or of `missing` entries), written out with the
  /// next change.
  private func touch(_ paths: [String], missing: Bool = false) throws(CacheStorageError) {
    let now = tick()
    for path in paths {
      if missing { missingTouches[path] = now } else { touches[path] = now }
    }
    if touches.count + missingTouches.count > Self.touchFlushThreshold {
      do {
        try connection.inTransaction { () throws(CacheStorageError) in try flushTouches() }
      } catch  where !error.isCorruption {
        // Locked by another instance: the uses stay recorded for the next change; the read
        // itself succeeded.
      }
    }
  }

  /// Writes the recorded uses; runs inside a transaction.
  private func flushTouches() throws(CacheStorageError) {
    for (path, use) in touches {
      try connection.query("UPDATE documents SET last_use = ? WHERE path = ?", [.integer(use), .text(path)])
    }
    for (path, use) in missingTouches {
      try connection.query("UPDATE missing_documents SET last_use = ? WHERE path = ?", [.integer(use), .text(path)])
    }
    touches = [:]
    missingTouches = [:]
  }

  /// The SQL condition on `documents` (as `table`) that selects the documents of the
  /// collection `collectionID` under `parent`, or of every such collection below it.
  private static func scope(
    parent: String, collectionID: String, allDescendants: Bool, table: String
  ) -> (condition: String, arguments: [SQLiteConnection.Argument]) {
    if !allDescendants {
      return ("\(table).collection = ?", [.text(parent.isEmpty ? collectionID : parent + "/" + collectionID)])
    } else if parent.isEmpty {
      return ("\(table).collection_id = ?", [.text(collectionID)])
    } else {
      // Collections strictly below `parent/`: '0' is the character after '/'.
      return (
        "\(table).collection_id = ? AND \(table).collection > ? AND \(table).collection < ?",
        [.text(collectionID), .text(parent + "/"), .text(parent + "0")]
      )
    }
  }

  func documents(parent: String, collectionID: String, allDescendants: Bool) throws(CacheStorageError) -> [Document] {
    let (condition, arguments) = Self.scope(parent: parent, collectionID: collectionID, allDescendants: allDescendants, table: "documents")
    return try decode(rows: try connection.query("SELECT path, body FROM documents WHERE " + condition, arguments))
  }

  /// The documents of `(path, body)` rows, their use recorded.
  private func decode(rows: [[SQLiteConnection.Column]]) throws(CacheStorageError) -> [Document] {
    var result: [Document] = []
    var paths: [String] = []
    result.reserveCapacity(rows.count)
    for row in rows {
      let path = row.first?.text ?? "?"
      result.append(try decode(row.count > 1 ? row[1] : nil, path: path))
      paths.append(path)
    }
    try touch(paths)
    return result
  }

  func apply(_ changes: [(path: String, entry: CacheEntry?)], isPinned: (String) -> Bool) throws(CacheStorageError) {
    // Damaged index tables fail the triggers on `documents`, and so every change.
    try repairingIndexes { () throws(CacheStorageError) in try applyOnce(changes, isPinned: isPinned) }
  }

  private func applyOnce(_ changes: [(path: String, entry: CacheEntry?)], isPinned: (String) -> Bool) throws(CacheStorageError) {
    lastKnownByteCount = try connection.inTransaction { () throws(CacheStorageError) -> Int in
      // Under the write lock, so other instances' changes are all in: their total, and
      // their uses, so that this connection's next uses count as the most recent.
      var byteCount = try storedTotal()
      let latestUse = try connection.query(Self.latestUseQuery).first?.first?.integer ?? 0
      clock = max(clock, latestUse)
      try flushTouches()
      // Read in the transaction: an index another instance just added is kept up to date too.
      let indexesByGroup = try indexes.definitionsByGroup()
      for (path, entry) in changes {
        byteCount -= try removeEntry(at: path, keepingDocument: entry?.document != nil)
        guard let entry else { continue }
        let size = entry.size(path: path)
        byteCount += size
        guard let document = entry.document else {
          try connection.query(
            "INSERT INTO missing_documents VALUES (?, ?, ?, ?, ?)",
            [.text(path), .integer(Int64(size)), .integer(tick())] + Self.timestampArguments(entry.version))
          continue
        }
        let (collection, collectionID, _) = CachePath.split(path)
        try connection.query(
          "INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          [
            .text(path), .text(collection), .text(collectionID), .blob(document.jsonBytes), .integer(Int64(size)),
            .integer(tick()),
          ] + Self.timestampArguments(document.updateTime))
        if let groupIndexes = indexesByGroup[collectionID] {
          try indexes.index(document, path: path, collectionID: collectionID, in: groupIndexes)
        }
      }
      let target = byteCount > sizeLimit ? evictionTarget : sizeLimit
      // Pages of the least recently used, after the last use of the previous page; pinned
      // documents are passed over (all pinned: the cache stays over its size).
      var after: Int64 = -1
      while byteCount > target {
        let victims = try connection.query(Self.evictionPageQuery, [.integer(after), .integer(after)])
        if victims.isEmpty {
          if after < 0 { byteCount = 0 }  // nothing left, whatever the stored total said
          break
        }
        for victim in victims {
          guard byteCount > target, victim.count == 3, let path = victim[0].text else { break }
          after = max(after, victim[2].integer ?? after)
          if isPinned(path) { continue }
          byteCount -= try removeEntry(at: path, keepingDocument: false)
        }
      }
      try connection.query("INSERT OR REPLACE INTO meta VALUES (?, ?)", [.text(Self.totalKey), .text(String(byteCount))])
      return byteCount
    }
  }

  /// Removes the entry at `path` (a document row stays when `keepingDocument`: the caller
  /// replaces it in place, which keeps its index entries' triggers as they are); returns
  /// the size it counted.
  private func removeEntry(at path: String, keepingDocument: Bool) throws(CacheStorageError) -> Int {
    var size = 0
    if let old = try connection.query("SELECT size FROM documents WHERE path = ?", [.text(path)]).first?.first?.integer {
      size += Int(old)
      if !keepingDocument { try connection.query("DELETE FROM documents WHERE path = ?", [.text(path)]) }
    }
    if let old = try connection.query("SELECT size FROM missing_documents WHERE path = ?", [.text(path)]).first?.first?.integer {
      size += Int(old)
      try connection.query("DELETE FROM missing_documents WHERE path = ?", [.text(path)])
    }
    return size
  }

  // MARK: - Field indexes

  func indexedDocuments(
    _ query: StructuredQuery, parent: String, collectionID: String, allDescendants: Bool
  ) throws(CacheStorageError) -> [Document]? {
    guard let matcher = QueryIndexMatcher(query) else { return nil }
    let rows: [[SQLiteConnection.Column]]
    do {
      try indexes.prepareSchema()
      let definitions = try indexes.definitions(collectionGroup: collectionID).indexes
      guard !definitions.isEmpty, let scan = matcher.bestScan(among: definitions) else { return nil }
      let scope = Self.scope(parent: parent, collectionID: collectionID, allDescendants: allDescendants, table: "d")
      rows = try indexes.rows(of: scan, collectionGroup: collectionID, scope: scope)
    } catch  where !error.isCorruption {
      // Index tables that cannot be read (damaged, locked) answer nothing: the query scans.
      return nil
    }
    return try decode(rows: rows)
  }

  func addFieldIndex(_ index: FieldIndex) throws(CacheStorageError) -> FieldIndex? {
    try repairingIndexes { () throws(CacheStorageError) in
      try indexes.add(index) { column, path throws(CacheStorageError) in try decode(column, path: path) }
    }
  }

  func fieldIndexes() throws(CacheStorageError) -> [FieldIndex] {
    try repairingIndexes { () throws(CacheStorageError) in try indexes.definitions().indexes }
  }

  func deleteAllFieldIndexes() throws(CacheStorageError) {
    try repairingIndexes { () throws(CacheStorageError) in try indexes.deleteAll() }
  }

  /// Runs `body` once the index tables are checked (when the file's schema changed); when
  /// it fails because they were damaged meanwhile, makes them again (empty) and runs it
  /// once more.
  private func repairingIndexes<T>(_ body: () throws(CacheStorageError) -> T) throws(CacheStorageError) -> T {
    do {
      try indexes.prepareSchema()
      return try body()
    } catch  where !error.isCorruption {
      guard (try? indexes.isSchemaIntact()) == false else { throw error }
      try indexes.rebuildSchema()
      return try body()
    }
  }

  // MARK: - Write batches

  var persistsMutations: Bool { true }

  func claimMutations(owner: String, isAbandoned: (String) -> Bool) throws(CacheStorageError) -> [StoredMutation] {
    try connection.inTransaction { () throws(CacheStorageError) -> [StoredMutation] in
      for row in try connection.query("SELECT DISTINCT owner FROM mutations") {
        guard let other = row.first?.text, other != owner, isAbandoned(other) else { continue }
        try connection.query("UPDATE mutations SET owner = ? WHERE owner = ?", [.text(owner), .text(other)])
      }
      let rows = try connection.query(
        "SELECT id, writes, write_seconds, write_nanos, attempted, user FROM mutations WHERE owner = ? ORDER BY id",
        [.text(owner)])
      var result: [StoredMutation] = []
      for row in rows {
        guard row.count == 6, let id = row[0].integer, case .blob(let bytes) = row[1] else {
          throw CacheStorageError(description: "a queued write batch in \(connection.path) is malformed")
        }
        let writes: [Write]
        do {
          writes = try JSONParser.parse(bytes).array("writes").map(Write.init(json:))
        } catch {
          throw CacheStorageError(description: "queued write batch \(id) in \(connection.path) does not parse: \(error)")
        }
        let time = Timestamp(seconds: row[2].integer ?? 0, nanoseconds: Int32(truncatingIfNeeded: row[3].integer ?? 0))
        result.append(
          StoredMutation(
            id: Int(id), writes: writes, commitBody: Data(bytes), localWriteTime: time, user: row[5].text.map(TokenUser.init(storageKey:)),
            attempted: row[4].integer == 1))
      }
      return result
    }
  }

  func addMutation(
    _ commitBody: Data, localWriteTime: Timestamp, owner: String, user: TokenUser?, minimumID: Int
  ) throws(CacheStorageError) -> Int {
    try connection.inTransaction { () throws(CacheStorageError) -> Int in
      let highest = try connection.query("SELECT COALESCE(MAX(id), 0) FROM mutations").first?.first?.integer ?? 0
      let id = max(Int(highest) + 1, minimumID)
      try connection.query(
        "INSERT INTO mutations (id, owner, writes, write_seconds, write_nanos, attempted, user) VALUES (?, ?, ?, ?, ?, 0, ?)",
        [
          .integer(Int64(id)), .text(owner), .blob(Array(commitBody)), .integer(localWriteTime.seconds),
          .integer(Int64(localWriteTime.nanoseconds)), user.map { .text($0.storageKey) } ?? .null,
        ])
      return id
    }
  }

  func setMutationUser(_ ids: [Int], _ user: TokenUser) throws(CacheStorageError) {
    try connection.inTransaction { () throws(CacheStorageError) in
      for id in ids {
        try connection.query("UPDATE mutations SET user = ? WHERE id = ?", [.text(user.storageKey), .integer(Int64(id))])
      }
    }
  }

  func removeMutation(_ id: Int) throws(CacheStorageError) {
    try connection.query("DELETE FROM mutations WHERE id = ?", [.integer(Int64(id))])
  }

  func setMutationAttempted(_ id: Int, _ attempted: Bool) throws(CacheStorageError) {
    try connection.query("UPDATE mutations SET attempted = ? WHERE id = ?", [.integer(attempted ? 1 : 0), .integer(Int64(id))])
  }
  func namedQuery(_ name: String) throws(CacheStorageError) -> NamedQuery? {
    guard let row = try connection.query("SELECT body FROM named_queries WHERE name = ?", [.text(name)]).first,
      case .blob(let bytes)? = row.first
    else { return nil }
    do {
      return try NamedQuery(json: JSONParser.parse(bytes))
    } catch {
      throw CacheStorageError(description: "cached named query \(name) does not parse: \(error)")
    }
  }

  func bundleCreateTime(_ id: String) throws(CacheStorageError) -> Timestamp? {
    let rows = try connection.query("SELECT create_seconds, create_nanos FROM bundles WHERE id = ?", [.text(id)])
    guard let row = rows.first, row.count == 2, let seconds = row[0].integer, let nanos = row[1].integer else { return nil }
    return Timestamp(seconds: seconds, nanoseconds: Int32(truncatingIfNeeded: nanos))
  }

  func saveBundle(_ metadata: BundleMetadata, queries: [NamedQuery]) throws(CacheStorageError) {
    try connection.inTransaction { () throws(CacheStorageError) in
      try connection.query(
        "INSERT OR REPLACE INTO bundles VALUES (?, ?, ?)",
        [.text(metadata.id), .integer(metadata.createTime.seconds), .integer(Int64(metadata.createTime.nanoseconds))])
      for query in queries {
        try connection.query(
          "INSERT OR REPLACE INTO named_queries VALUES (?, ?)", [.text(query.name), .blob(JSONWriter.bytes(query.json))])
      }
    }
  }
}
