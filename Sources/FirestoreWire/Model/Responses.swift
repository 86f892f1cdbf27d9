/// One element of a `:batchGet` response array.
public struct BatchGetResponse: Sendable, Equatable {
  /// What the element reports.
  public enum Result: Sendable, Equatable {
    /// The document exists.
    case found(Document)
    /// No document has this name.
    case missing(String)
    /// The ID of a transaction opened by the request (first element only).
    case transaction(String)
  }

  /// What the element reports.
  public var result: Result
  /// The time the read was done; absent on a transaction-only element.
  public var readTime: Timestamp?

  /// Creates an element.
  public init(result: Result, readTime: Timestamp?) {
    self.result = result
    self.readTime = readTime
  }

  /// Reads one element.
  public init(json: JSONValue) throws {
    try json.requireObject("BatchGetDocumentsResponse")
    readTime = try json.optionalTimestamp("readTime")
    if let found = json["found"] {
      result = .found(try Document(json: found))
    } else if let missing = try json.optionalString("missing") {
      result = .missing(missing)
    } else if let tx = try json.optionalString("transaction") {
      result = .transaction(tx)
    } else {
      throw WireFormatError("a batchGet element needs found, missing or transaction")
    }
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    switch result {
    case .found(let d): m.append(("found", d.json))
    case .missing(let n): m.append(("missing", .string(n)))
    case .transaction(let t): m.append(("transaction", .string(t)))
    }
    m.append("readTime", readTime.map { .string($0.rfc3339) })
    return .object(m)
  }
}

/// One element of a `:runQuery` response array.
public struct RunQueryResponse: Sendable, Equatable {
  /// A result document, if this element carries one.
  public var document: Document?
  /// The ID of a transaction opened by the request.
  public var transaction: String?
  /// The time the read was done.
  public var readTime: Timestamp?
  /// Results skipped by `offset` since the last element (unreliable on the emulator).
  public var skippedResults: Int64?
  /// Whether this is the last element.
  public var done: Bool

  /// Creates an element.
  public init(
    document: Document? = nil, transaction: String? = nil, readTime: Timestamp? = nil, skippedResults: Int64? = nil, done: Bool = false
  ) {
    self.document = document
    self.transaction = transaction
    self.readTime = readTime
    self.skippedResults = skippedResults
    self.done = done
  }

  /// Reads one element.
  public init(json: JSONValue) throws {
    try json.requireObject("RunQueryResponse")
    document = try json["document"].map(Document.init(json:))
    transaction = try json.optionalString("transaction")
    readTime = try json.optionalTimestamp("readTime")
    skippedResults = try json.optionalInt64("skippedResults")
    done = try json.optionalBool("done") ?? false
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    m.append("transaction", transaction.map(JSONValue.string))
    m.append("document", document?.json)
    m.append("readTime", readTime.map { .string($0.rfc3339) })
    m.append("skippedResults", skippedResults.map { .number(String($0)) })
    if done { m.append(("done", .bool(true))) }
    return .object(m)
  }
}

/// One element of a `:runAggregationQuery` response array.
public struct RunAggregationQueryResponse: Sendable, Equatable {
  /// Results by alias, if this element carries them.
  public var aggregateFields: [String: Value]?
  /// The ID of a transaction opened by the request.
  public var transaction: String?
  /// The time the read was done.
  public var readTime: Timestamp?

  /// Creates an element.
  public init(aggregateFields: [String: Value]?, transaction: String? = nil, readTime: Timestamp?) {
    self.aggregateFields = aggregateFields
    self.transaction = transaction
    self.readTime = readTime
  }

  /// Reads one element.
  public init(json: JSONValue) throws {
    try json.requireObject("RunAggregationQueryResponse")
    if let result = json["result"] {
      aggregateFields = try Value.fields(from: result["aggregateFields"])
    }
    transaction = try json.optionalString("transaction")
    readTime = try json.optionalTimestamp("readTime")
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    m.append("transaction", transaction.map(JSONValue.string))
    m.append("result", aggregateFields.map { .object([("aggregateFields", Value.json(fields: $0))]) })
    m.append("readTime", readTime.map { .string($0.rfc3339) })
    return .object(m)
  }
}

/// The reply to `:commit`.
public struct CommitResponse: Sendable, Equatable {
  /// The result of one write.
  public struct WriteResult: Sendable, Equatable {
    /// When the document was last updated; absent when nothing changed (a delete of a missing document).
    public var updateTime: Timestamp?
    /// One value per transform, in order.
    public var transformResults: [Value]

    /// Creates a write result.
    public init(updateTime: Timestamp?, transformResults: [Value] = []) {
      self.updateTime = updateTime
      self.transformResults = transformResults
    }
  }

  /// Results in the order of the writes.
  public var writeResults: [WriteResult]
  /// When the commit happened; absent for an empty transaction commit.
  public var commitTime: Timestamp?

  /// Creates a reply.
  public init(writeResults: [WriteResult], commitTime: Timestamp?) {
    self.writeResults = writeResults
    self.commitTime = commitTime
  }

  /// Reads a reply.
  public init(json: JSONValue) throws {
    try json.requireObject("CommitResponse")
    writeResults = try json.array("writeResults").map { r in
      try r.requireObject("CommitResponse.writeResults[]")
      return WriteResult(
        updateTime: try r.optionalTimestamp("updateTime"), transformResults: try r.array("transformResults").map(Value.init(json:)))
    }
    commitTime = try json.optionalTimestamp("commitTime")
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    if !writeResults.isEmpty {
      m.append(
        (
          "writeResults",
          .array(
            writeResults.map { r in
              var o: [(String, JSONValue)] = []
              o.append("updateTime", r.updateTime.map { .string($0.rfc3339) })
              if !r.transformResults.isEmpty { o.append(("transformResults", .array(r.transformResults.map(\.json)))) }
              return .object(o)
            })
        ))
    }
    m.append("commitTime", commitTime.map { .string($0.rfc3339) })
    return .object(m)
  }
}

/// A page of `:partitionQuery`.
public struct PartitionQueryResponse: Sendable, Equatable {
  /// Split points: cursors on `__name__` (one document reference each). Pages come in no
  /// particular order; merge and sort them.
  public var partitions: [StructuredQuery.Cursor]
  /// The token for the next page; absent or empty at the end.
  public var nextPageToken: String?

  /// Creates a page.
  public init(partitions: [StructuredQuery.Cursor], nextPageToken: String?) {
    self.partitions = partitions
    self.nextPageToken = nextPageToken
  }

  /// Reads a page.
  public init(json: JSONValue) throws {
    try json.requireObject("PartitionQueryResponse")
    partitions = try json.array("partitions").map(StructuredQuery.cursor(from:))
    nextPageToken = try json.optionalString("nextPageToken")
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    if !partitions.isEmpty { m.append(("partitions", .array(partitions.map(StructuredQuery.json(cursor:))))) }
    m.append("nextPageToken", nextPageToken.map(JSONValue.string))
    return .object(m)
  }
}

/// A page of `GET …/{collection}` (listDocuments).
public struct ListDocumentsResponse: Sendable, Equatable {
  /// The documents of this page (name only for "missing" ones).
  public var documents: [Document]
  /// The token for the next page; absent or empty at the end.
  public var nextPageToken: String?

  /// Creates a page.
  public init(documents: [Document], nextPageToken: String?) {
    self.documents = documents
    self.nextPageToken = nextPageToken
  }

  /// Reads a page.
  public init(json: JSONValue) throws {
    try json.requireObject("ListDocumentsResponse")
    documents = try json.array("documents").map(Document.init(json:))
    nextPageToken = try json.optionalString("nextPageToken")
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    if !documents.isEmpty { m.append(("documents", .array(documents.map(\.json)))) }
    m.append("nextPageToken", nextPageToken.map(JSONValue.string))
    return .object(m)
  }
}

/// A page of `:listCollectionIds`.
public struct ListCollectionIDsResponse: Sendable, Equatable {
  /// Collection IDs of this page.
  public var collectionIDs: [String]
  /// The token for the next page; absent or empty at the end.
  public var nextPageToken: String?

  /// Creates a page.
  public init(collectionIDs: [String], nextPageToken: String?) {
    self.collectionIDs = collectionIDs
    self.nextPageToken = nextPageToken
  }

  /// Reads a page.
  public init(json: JSONValue) throws {
    try json.requireObject("ListCollectionIdsResponse")
    collectionIDs = try json.array("collectionIds").map { v in
      guard case .string(let s) = v else { throw Value.mismatch("collectionIds", v) }
      return s
    }
    nextPageToken = try json.optionalString("nextPageToken")
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    if !collectionIDs.isEmpty { m.append(("collectionIds", .array(collectionIDs.map(JSONValue.string)))) }
    m.append("nextPageToken", nextPageToken.map(JSONValue.string))
    return .object(m)
  }
}

/// Firestore's REST error body: `{"error":{"code":404,"message":"…","status":"NOT_FOUND"}}`.
public struct ErrorBody: Sendable, Equatable {
  /// The HTTP status (REST) or gRPC code number (streams), as the server wrote it.
  public var code: Int
  /// The server's message.
  public var message: String
  /// The canonical gRPC code name, e.g. `NOT_FOUND`.
  public var status: String

  /// Creates an error body.
  public init(code: Int, message: String, status: String) {
    self.code = code
    self.message = message
    self.status = status
  }

  /// Reads an error body; throws when the JSON is not one.
  public init(json: JSONValue) throws {
    guard let e = json["error"] else { throw WireFormatError("not an error body") }
    code = Int(try e.optionalInt64("code") ?? 0)
    message = try e.optionalString("message") ?? ""
    status = try e.optionalString("status") ?? ""
  }

  /// The REST JSON form.
  public var json: JSONValue {
    .object([("error", .object([("code", .integer(Int64(code))), ("message", .string(message)), ("status", .string(status))]))])
  }
}
