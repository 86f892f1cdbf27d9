import FirestoreWire

/// The field indexes of an SQLite cache file: their definitions, their entries, and the
/// documents an index cannot answer for, kept beside the documents by
/// ``SQLiteCacheStorage`` in the same transactions.
///
/// * `field_indexes`: one row per index, its collection group and its segments (JSON).
/// * `index_entries`: per index, array element key and field key, the document's path;
///   the primary key is the order range reads walk.
/// * `unindexed_documents`: documents of an indexed group whose entries may be missing or
///   stale; every indexed read reads them too, so an index never hides a document.
///
/// Triggers on `documents` keep this true whoever writes the file, this client or one
/// that knows nothing of indexes (an earlier version sharing the directory): storing a
/// document of an indexed group marks it unindexed until its entries are written, and
/// removing one (deleted, evicted) removes its entries. Damaged index tables are dropped
/// and made again empty, which costs the indexes but never the documents.
final class SQLiteFieldIndexes {
  private let connection: SQLiteConnection
  /// Definitions parsed from the file, by row ID with the text they were parsed from, so
  /// that each is parsed once; `nil` for a row that is not a valid definition.
  private var parsed: [Int64: (group: String, json: String, index: FieldIndex?)] = [:]

  init(connection: SQLiteConnection) { self.connection = connection }

  // MARK: - Schema

  /// The tables, their indexes and the triggers, as SQLite keeps their statements in
  /// `sqlite_master`: a file whose objects of these names differ in any way was changed
  /// by something else, and they are made again.
  private static let objects: [(type: String, name: String, sql: String)] = [
    (
      "table", "field_indexes",
      "CREATE TABLE field_indexes (id INTEGER PRIMARY KEY, collection_group TEXT NOT NULL, segments TEXT NOT NULL)"
    ),
    ("index", "field_indexes_by_group", "CREATE INDEX field_indexes_by_group ON field_indexes (collection_group)"),
    (
      "table", "index_entries",
      """
      CREATE TABLE index_entries (
        index_id INTEGER NOT NULL, array_value BLOB NOT NULL CHECK (typeof(array_value) = 'blob'),
        key BLOB NOT NULL CHECK (typeof(key) = 'blob'), path TEXT NOT NULL,
        PRIMARY KEY (index_id, array_value, key, path)) WITHOUT ROWID
      """
    ),
    ("index", "index_entries_by_path", "CREATE INDEX index_entries_by_path ON index_entries (path)"),
    ("table", "unindexed_documents", "CREATE TABLE unindexed_documents (path TEXT PRIMARY KEY, collection_id TEXT NOT NULL)"),
    ("index", "unindexed_documents_by_group", "CREATE INDEX unindexed_documents_by_group ON unindexed_documents (collection_id)"),
    (
      "trigger", "documents_index_insert",
      """
      CREATE TRIGGER documents_index_insert AFTER INSERT ON documents
        WHEN EXISTS (SELECT 1 FROM field_indexes WHERE collection_group = NEW.collection_id)
        BEGIN INSERT OR REPLACE INTO unindexed_documents VALUES (NEW.path, NEW.collection_id); END
      """
    ),
    (
      "trigger", "documents_index_update",
      """
      CREATE TRIGGER documents_index_update AFTER UPDATE OF body ON documents
        WHEN EXISTS (SELECT 1 FROM field_indexes WHERE collection_group = NEW.collection_id)
        BEGIN INSERT OR REPLACE INTO unindexed_documents VALUES (NEW.path, NEW.collection_id); END
      """
    ),
    (
      "trigger", "documents_index_delete",
      """
      CREATE TRIGGER documents_index_delete AFTER DELETE ON documents
        BEGIN DELETE FROM index_entries WHERE path = OLD.path; DELETE FROM unindexed_documents WHERE path = OLD.path; END
      """
    ),
  ]

  /// The statements that create the objects when missing.
  static let schema = objects.map { object in
    let create = "CREATE \(object.type.uppercased()) "
    return create + "IF NOT EXISTS " + object.sql.dropFirst(create.count) + ";"
  }.joined(separator: "\n")

  /// The schema version (`PRAGMA schema_version`) the objects were last found intact at;
  /// any change to any table of the file changes it.
  private var checkedSchemaVersion: Int64?

  /// Makes the objects when missing and again when changed (see ``isSchemaIntact()``),
  /// unless nothing in the file's schema changed since the last look. Runs outside a
  /// transaction.
  func prepareSchema() throws(CacheStorageError) {
    let version = try schemaVersion()
    if version != nil && version == checkedSchemaVersion { return }
    if try !isSchemaIntact() { try rebuildSchema() }
    checkedSchemaVersion = try schemaVersion()
  }

  private func schemaVersion() throws(CacheStorageError) -> Int64? {
    try connection.query("PRAGMA schema_version").first?.first?.integer
  }

  /// Whether every object is there as this client made it.
  func isSchemaIntact() throws(CacheStorageError) -> Bool {
    let rows = try connection.query("SELECT type, name, sql FROM sqlite_master")
    var found: [String: (type: String, sql: String)] = [:]
    for row in rows where row.count == 3 {
      if let type = row[0].text, let name = row[1].text { found[name] = (type, row[2].text ?? "") }
    }
    return Self.objects.allSatisfy { found[$0.name]?.type == $0.type && found[$0.name]?.sql == $0.sql }
  }

  /// Drops whatever holds the objects' names and makes them again, empty: every index is
  /// gone, the documents stay.
  func rebuildSchema() throws(CacheStorageError) {
    try connection.inTransaction { () throws(CacheStorageError) in
      let names = Self.objects.map(\.name)
      let placeholders = names.map { _ in "?" }.joined(separator: ", ")
      let found = try connection.query("SELECT type, name FROM sqlite_master WHERE name IN (\(placeholders))", names.map { .text($0) })
      // Triggers first; a table's drop takes its own indexes with it.
      for row in found.sorted(by: { $0.first?.text == "trigger" && $1.first?.text != "trigger" }) where row.count == 2 {
        guard let type = row[0].text, let name = row[1].text, ["table", "view", "trigger", "index"].contains(type) else { continue }
        try connection.execute("DROP \(type.uppercased()) IF EXISTS \"\(name)\"")
      }
      try connection.execute(Self.schema)
    }
    parsed = [:]
    checkedSchemaVersion = nil
  }

  // MARK: - Definitions

  /// The valid definitions of `collectionGroup` (of every group when `nil`), and the row
  /// IDs of rows that are not valid definitions.
  func definitions(collectionGroup: String? = nil) throws(CacheStorageError) -> (indexes: [FieldIndex], malformed: [Int64]) {
    let select = "SELECT id, collection_group, segments FROM field_indexes"
    let rows =
      if let collectionGroup {
        try connection.query(select + " WHERE collection_group = ?", [.text(collectionGroup)])
      } else {
        try connection.query(select)
      }
    var indexes: [FieldIndex] = []
    var malformed: [Int64] = []
    for row in rows {
      guard row.count == 3, let id = row[0].integer else { continue }
      guard let group = row[1].text, let json = row[2].text else {
        malformed.append(id)
        continue
      }
      if let known = parsed[id], known.group == group, known.json == json {
        if let index = known.index { indexes.append(index) } else { malformed.append(id) }
        continue
      }
      let index = FieldIndex(id: id, collectionGroup: group, segmentsJSON: json)
      parsed[id] = (group, json, index)
      if let index { indexes.append(index) } else { malformed.append(id) }
    }
    return (indexes, malformed)
  }

  /// The valid definitions by collection group, after deleting the rows that are not
  /// valid ones (with their entries); runs inside a change's transaction.
  func definitionsByGroup() throws(CacheStorageError) -> [String: [FieldIndex]] {
    let (indexes, malformed) = try definitions()
    for id in malformed {
      try connection.query("DELETE FROM field_indexes WHERE id = ?", [.integer(id)])
      try connection.query("DELETE FROM index_entries WHERE index_id = ?", [.integer(id)])
      parsed[id] = nil
    }
    return Dictionary(grouping: indexes, by: \.collectionGroup)
  }

  // MARK: - Entries

  /// Writes the entries of a document just stored at `path` in a group with `indexes`
  /// (replacing any it had) and clears its unindexed mark; a document too large to index
  /// keeps the mark. Runs inside the change's transaction.
  func index(_ document: Document, path: String, collectionID: String, in indexes: [FieldIndex]) throws(CacheStorageError) {
    try connection.query("DELETE FROM index_entries WHERE path = ?", [.text(path)])
    var all: [(Int64, FieldIndex.Entry)] = []
    for index in indexes {
      guard let entries = index.entries(of: document.fields) else {
        try markUnindexed(path: path, collectionID: collectionID)
        return
      }
      all += entries.map { (index.id, $0) }
    }
    for (id, entry) in all {
      try connection.query(
        "INSERT OR IGNORE INTO index_entries VALUES (?, ?, ?, ?)", [.integer(id), .blob(entry.arrayValue), .blob(entry.key), .text(path)])
    }
    try connection.query("DELETE FROM unindexed_documents WHERE path = ?", [.text(path)])
  }

  private func markUnindexed(path: String, collectionID: String) throws(CacheStorageError) {
    try connection.query("INSERT OR REPLACE INTO unindexed_documents VALUES (?, ?)", [.text(path), .text(collectionID)])
  }

  /// Stores `index` with the entries of every cached document of its group (read with
  /// `decode`), unless an index with the same definition is there; returns it as stored,
  /// or `nil` when it was there already. One transaction.
  func add(
    _ index: FieldIndex, decode: (SQLiteConnection.Column?, String) throws(CacheStorageError) -> Document
  ) throws(CacheStorageError) -> FieldIndex? {
    try connection.inTransaction { () throws(CacheStorageError) -> FieldIndex? in
      let existing = try definitionsByGroup()[index.collectionGroup] ?? []
      if existing.contains(where: { $0.hasSameDefinition(as: index) }) { return nil }
      try connection.query(
        "INSERT INTO field_indexes (collection_group, segments) VALUES (?, ?)", [.text(index.collectionGroup), .text(index.segmentsJSON)])
      guard let id = try connection.query("SELECT last_insert_rowid()").first?.first?.integer else {
        throw CacheStorageError(description: "no row ID for a new index in \(connection.path)", isCorruption: false)
      }
      var stored = index
      stored.id = id
      let rows = try connection.query("SELECT path, body FROM documents WHERE collection_id = ?", [.text(index.collectionGroup)])
      for row in rows {
        guard let path = row.first?.text else { continue }
        let document = try decode(row.count > 1 ? row[1] : nil, path)
        guard let entries = stored.entries(of: document.fields) else {
          try markUnindexed(path: path, collectionID: index.collectionGroup)
          continue
        }
        for entry in entries {
          try connection.query(
            "INSERT OR IGNORE INTO index_entries VALUES (?, ?, ?, ?)",
            [.integer(id), .blob(entry.arrayValue), .blob(entry.key), .text(path)])
        }
      }
      return stored
    }
  }

  /// Removes every index and entry. One transaction.
  func deleteAll() throws(CacheStorageError) {
    try connection.inTransaction { () throws(CacheStorageError) in
      try connection.execute("DELETE FROM field_indexes; DELETE FROM index_entries; DELETE FROM unindexed_documents;")
    }
    parsed = [:]
  }

  // MARK: - Reads

  /// The rows (`path`, `body`) of the documents in `scan`'s ranges and of the unindexed
  /// documents of `collectionGroup`, each once, limited to those `scope` (an SQL condition
  /// on the `documents` table as `d`, with its arguments) selects.
  func rows(
    of scan: QueryIndexMatcher.Scan, collectionGroup: String, scope: (condition: String, arguments: [SQLiteConnection.Argument])
  ) throws(CacheStorageError) -> [[SQLiteConnection.Column]] {
    var seen = Set<String>()
    var result: [[SQLiteConnection.Column]] = []
    func keep(_ rows: [[SQLiteConnection.Column]]) {
      for row in rows {
        guard let path = row.first?.text, seen.insert(path).inserted else { continue }
        result.append(row)
      }
    }
    let select = "SELECT d.path, d.body FROM index_entries e JOIN documents d ON d.path = e.path WHERE e.index_id = ? "
    for range in scan.ranges {
      var sql = select + "AND e.array_value = ? AND e.key >= ? "
      var arguments: [SQLiteConnection.Argument] = [.integer(scan.indexID), .blob(range.arrayValue), .blob(range.lower)]
      if let upper = range.upper {
        sql += "AND e.key < ? "
        arguments.append(.blob(upper))
      }
      keep(try connection.query(sql + "AND " + scope.condition, arguments + scope.arguments))
    }
    keep(
      try connection.query(
        "SELECT d.path, d.body FROM unindexed_documents u JOIN documents d ON d.path = u.path WHERE u.collection_id = ? AND "
          + scope.condition, [.text(collectionGroup)] + scope.arguments))
    return result
  }
}
