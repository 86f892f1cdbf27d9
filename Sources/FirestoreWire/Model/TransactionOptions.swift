/// How a transaction is opened (`google.firestore.v1.TransactionOptions`).
public enum TransactionOptions: Sendable, Equatable {
  /// Read-only, optionally at a past time.
  case readOnly(readTime: Timestamp?)
  /// Read-write; `retrying` names the aborted transaction this one replaces.
  case readWrite(retrying: String?)

  /// The REST JSON form.
  public var json: JSONValue {
    switch self {
    case .readOnly(let t):
      return .object([("readOnly", .object(t.map { [("readTime", .string($0.rfc3339))] } ?? []))])
    case .readWrite(let id):
      return .object([("readWrite", .object(id.map { [("retryTransaction", .string($0))] } ?? []))])
    }
  }

  /// Reads REST `TransactionOptions`; an empty object means read-write.
  public init(json: JSONValue) throws {
    if let ro = json["readOnly"] {
      self = .readOnly(readTime: try ro.optionalTimestamp("readTime"))
    } else {
      self = .readWrite(retrying: try json["readWrite"]?.optionalString("retryTransaction"))
    }
  }
}

/// Which snapshot of the database a read sees: inside a transaction, a new transaction
/// that the read opens, or a point in time. Absent means "now".
public enum ReadConsistency: Sendable, Equatable {
  /// Read inside this transaction (its opaque base64 ID).
  case transaction(String)
  /// Open a transaction with these options; the response's first element carries its ID.
  case newTransaction(TransactionOptions)
  /// Read the database as it was at this time.
  case readTime(Timestamp)

  /// Appends this selector's member to a request body.
  public func append(to members: inout [(String, JSONValue)]) {
    switch self {
    case .transaction(let id): members.append(("transaction", .string(id)))
    case .newTransaction(let options): members.append(("newTransaction", options.json))
    case .readTime(let t): members.append(("readTime", .string(t.rfc3339)))
    }
  }

  /// Reads the selector from a request body, if it has one.
  public static func from(_ json: JSONValue) throws -> ReadConsistency? {
    if let id = try json.optionalString("transaction") { return .transaction(id) }
    if let options = json["newTransaction"] { return .newTransaction(try TransactionOptions(json: options)) }
    if let t = try json.optionalTimestamp("readTime") { return .readTime(t) }
    return nil
  }
}
