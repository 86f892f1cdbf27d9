import CSQLite

/// A thin, throwing wrapper over one SQLite connection (the system `libsqlite3`).
///
/// Not thread-safe; the cache storage uses it under its store's lock.
final class SQLiteConnection {
  /// How long a statement waits for another connection's write lock before failing with
  /// `SQLITE_BUSY`. Short on purpose: the cache is used under its store's lock, so a long
  /// wait would stall every task behind it; a busy cache is skipped for that change instead.
  static let busyTimeoutMilliseconds: Int32 = 50

  private var handle: OpaquePointer?
  /// The file this connection opened.
  let path: String

  /// Opens (creating if needed) the database file at `path`.
  init(path: String) throws(CacheStorageError) {
    self.path = path
    // Created owner-only before SQLite opens it: SQLite would create it 0644 less the umask.
    try CacheFileAccess.prepareFile(path: path)
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(db)
      throw CacheStorageError(description: "cannot open \(path): \(message) (\(rc))", isCorruption: false)
    }
    handle = db
    // Another instance (or process) may hold the write lock; wait only briefly (see above).
    sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
  }

  deinit { close() }

  /// Closes the connection now, finalizing any statement still open; later calls fail.
  ///
  /// Call it before deleting the file: in WAL mode the last connection to close removes
  /// the `-wal` and `-shm` files by name, which would be another database's by then.
  func close() {
    guard let handle else { return }
    while let statement = sqlite3_next_stmt(handle, nil) { sqlite3_finalize(statement) }
    sqlite3_close_v2(handle)
    self.handle = nil
  }

  private func failure(_ what: String, _ rc: Int32) -> CacheStorageError {
    let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
    // Only damage to the file is a reason to throw its data away; a lock or a full disk is not.
    let primary = rc & 0xff
    let corrupt = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_FORMAT
    return CacheStorageError(description: "\(what) failed in \(path): \(message) (\(rc))", isCorruption: corrupt)
  }

  /// Runs SQL statements that return nothing.
  func execute(_ sql: String) throws(CacheStorageError) {
    guard let handle else { throw CacheStorageError(description: "\(path) is closed") }
    let rc = sqlite3_exec(handle, sql, nil, nil, nil)
    if rc != SQLITE_OK { throw failure(sql, rc) }
  }

  /// Runs `body` in one transaction: all of its changes or, when it throws, none.
  func inTransaction<T>(_ body: () throws(CacheStorageError) -> T) throws(CacheStorageError) -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// A bound statement parameter.
  enum Argument {
    case text(String)
    case integer(Int64)
    case blob([UInt8])
    case null
  }

  /// A result column.
  enum Column {
    case text(String)
    case integer(Int64)
    case blob([UInt8])
    case null

    var integer: Int64? {
      if case .integer(let v) = self { return v }
      return nil
    }

    var text: String? {
      if case .text(let v) = self { return v }
      return nil
    }
  }

  /// Runs one statement with `arguments` and returns its rows.
  @discardableResult
  func query(_ sql: String, _ arguments: [Argument] = []) throws(CacheStorageError) -> [[Column]] {
    guard let handle else { throw CacheStorageError(description: "\(path) is closed") }
    var statement: OpaquePointer?
    var rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard rc == SQLITE_OK, let statement else { throw failure(sql, rc) }
    defer { sqlite3_finalize(statement) }
    // SQLite copies bound values (SQLITE_TRANSIENT), so Swift buffers need not outlive the call.
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    for (i, argument) in arguments.enumerated() {
      let index = Int32(i + 1)
      switch argument {
      case .text(let s):
        // By byte count, not NUL-terminated: a document ID may contain U+0000.
        var utf8 = s
        rc = utf8.withUTF8 { bytes in
          bytes.withMemoryRebound(to: CChar.self) {
            // A nil pointer would bind NULL, so an empty string binds a literal "".
            guard let base = $0.baseAddress, !$0.isEmpty else { return sqlite3_bind_text(statement, index, "", 0, transient) }
            return sqlite3_bind_text(statement, index, base, Int32($0.count), transient)
          }
        }
      case .integer(let v): rc = sqlite3_bind_int64(statement, index, v)
      case .blob(let bytes):
        // A nil pointer would bind NULL, so an empty blob binds a zero-length one.
        rc =
          bytes.isEmpty
          ? sqlite3_bind_zeroblob(statement, index, 0)
          : bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
      case .null: rc = sqlite3_bind_null(statement, index)
      }
      if rc != SQLITE_OK { throw failure("binding \(sql)", rc) }
    }
    var rows: [[Column]] = []
    while true {
      rc = sqlite3_step(statement)
      if rc == SQLITE_DONE { break }
      guard rc == SQLITE_ROW else { throw failure(sql, rc) }
      var row: [Column] = []
      for c in 0..<sqlite3_column_count(statement) {
        switch sqlite3_column_type(statement, c) {
        case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, c)))
        case SQLITE_TEXT:
          // By byte count (text first, then its length, as SQLite asks): U+0000 may be inside.
          let text = sqlite3_column_text(statement, c)
          let count = Int(sqlite3_column_bytes(statement, c))
          row.append(.text(text.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""))
        case SQLITE_BLOB:
          let count = Int(sqlite3_column_bytes(statement, c))
          if let bytes = sqlite3_column_blob(statement, c), count > 0 {
            row.append(.blob(Array(UnsafeRawBufferPointer(start: bytes, count: count))))
          } else {
            row.append(.blob([]))
          }
        default: row.append(.null)
        }
      }
      rows.append(row)
    }
    return rows
  }
}
