/// The body of `:batchGet`.
public struct BatchGetRequest: Sendable, Equatable {
  /// Full document names, in the order asked.
  public var documents: [String]
  /// Canonical field paths to return; `nil` returns whole documents, empty returns none.
  public var mask: [String]?
  /// Which snapshot to read.
  public var consistency: ReadConsistency?

  /// Creates a request.
  public init(documents: [String], mask: [String]? = nil, consistency: ReadConsistency? = nil) {
    self.documents = documents
    self.mask = mask
    self.consistency = consistency
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = [("documents", .array(documents.map(JSONValue.string)))]
    if let mask { m.append(("mask", .object([("fieldPaths", .array(mask.map(JSONValue.string)))]))) }
    consistency?.append(to: &m)
    return .object(m)
  }

  /// Reads a request body.
  public init(json: JSONValue) throws {
    try json.requireObject("BatchGetDocumentsRequest")
    documents = try json.array("documents").map { v in
      guard case .string(let s) = v else { throw Value.mismatch("documents", v) }
      return s
    }
    if let mask = json["mask"] {
      self.mask = try mask.array("fieldPaths").map { v in
        guard case .string(let s) = v else { throw Value.mismatch("fieldPaths", v) }
        return s
      }
    }
    consistency = try ReadConsistency.from(json)
  }
}

/// A query request's `explainOptions`: plan the query and report the plan, and with
/// `analyze` also run it and report its statistics with the results.
public struct ExplainRequestOptions: Sendable, Equatable {
  /// Whether the query is also executed.
  public var analyze: Bool

  /// Creates options.
  public init(analyze: Bool) {
    self.analyze = analyze
  }

  /// The REST JSON form.
  public var json: JSONValue { .object([("analyze", .bool(analyze))]) }

  /// Reads the `explainOptions` member of a request body, if it has one.
  public static func from(_ json: JSONValue) throws -> ExplainRequestOptions? {
    guard let options = json["explainOptions"] else { return nil }
    try options.requireObject("explainOptions")
    return ExplainRequestOptions(analyze: try options.optionalBool("analyze") ?? false)
  }
}

/// The body of `:runQuery`.
public struct RunQueryRequest: Sendable, Equatable {
  /// The query.
  public var structuredQuery: StructuredQuery
  /// Which snapshot to read.
  public var consistency: ReadConsistency?
  /// Whether to plan (and perhaps run) the query for an explanation.
  public var explainOptions: ExplainRequestOptions?

  /// Creates a request.
  public init(structuredQuery: StructuredQuery, consistency: ReadConsistency? = nil, explainOptions: ExplainRequestOptions? = nil) {
    self.structuredQuery = structuredQuery
    self.consistency = consistency
    self.explainOptions = explainOptions
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = [("structuredQuery", structuredQuery.json)]
    consistency?.append(to: &m)
    m.append("explainOptions", explainOptions?.json)
    return .object(m)
  }

  /// Reads a request body.
  public init(json: JSONValue) throws {
    guard let q = json["structuredQuery"] else { throw WireFormatError("missing \"structuredQuery\"") }
    structuredQuery = try StructuredQuery(json: q)
    consistency = try ReadConsistency.from(json)
    explainOptions = try ExplainRequestOptions.from(json)
  }
}

/// One aggregation of a `:runAggregationQuery`.
public struct Aggregation: Sendable, Equatable {
  /// What is computed.
  public enum Kind: Sendable, Equatable {
    /// The number of documents, optionally capped.
    case count(upTo: Int64?)
    /// The sum of a numeric field (canonical path).
    case sum(String)
    /// The mean of a numeric field (canonical path).
    case average(String)
  }

  /// The name the result is reported under.
  public var alias: String
  /// What is computed.
  public var kind: Kind

  /// Creates an aggregation.
  public init(alias: String, kind: Kind) {
    self.alias = alias
    self.kind = kind
  }

  /// The REST JSON form.
  public var json: JSONValue {
    let payload: (String, JSONValue)
    switch kind {
    case .count(let upTo): payload = ("count", .object(upTo.map { [("upTo", .string(String($0)))] } ?? []))
    case .sum(let path): payload = ("sum", .object([("field", StructuredQuery.fieldReference(path))]))
    case .average(let path): payload = ("avg", .object([("field", StructuredQuery.fieldReference(path))]))
    }
    return .object([("alias", .string(alias)), payload])
  }

  /// Reads an aggregation; `index` names it when the alias is absent (`field_1`, …).
  public init(json: JSONValue, index: Int) throws {
    alias = try json.optionalString("alias") ?? "field_\(index + 1)"
    if let c = json["count"] {
      kind = .count(upTo: try c.optionalInt64("upTo"))
    } else if let s = json["sum"] {
      guard let f = s["field"] else { throw WireFormatError("sum lacks field") }
      kind = .sum(try StructuredQuery.fieldPath(from: f))
    } else if let a = json["avg"] {
      guard let f = a["field"] else { throw WireFormatError("avg lacks field") }
      kind = .average(try StructuredQuery.fieldPath(from: f))
    } else {
      throw WireFormatError("an aggregation needs count, sum or avg")
    }
  }
}

/// The body of `:runAggregationQuery`.
public struct RunAggregationQueryRequest: Sendable, Equatable {
  /// The query whose results are aggregated.
  public var structuredQuery: StructuredQuery
  /// The aggregations, each under its alias.
  public var aggregations: [Aggregation]
  /// Which snapshot to read.
  public var consistency: ReadConsistency?
  /// Whether to plan (and perhaps run) the aggregation for an explanation.
  public var explainOptions: ExplainRequestOptions?

  /// Creates a request.
  public init(
    structuredQuery: StructuredQuery, aggregations: [Aggregation], consistency: ReadConsistency? = nil,
    explainOptions: ExplainRequestOptions? = nil
  ) {
    self.structuredQuery = structuredQuery
    self.aggregations = aggregations
    self.consistency = consistency
    self.explainOptions = explainOptions
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = [
      (
        "structuredAggregationQuery",
        .object([("structuredQuery", structuredQuery.json), ("aggregations", .array(aggregations.map(\.json)))])
      )
    ]
    consistency?.append(to: &m)
    m.append("explainOptions", explainOptions?.json)
    return .object(m)
  }

  /// Reads a request body.
  public init(json: JSONValue) throws {
    guard let saq = json["structuredAggregationQuery"], let q = saq["structuredQuery"] else {
      throw WireFormatError("missing \"structuredAggregationQuery.structuredQuery\"")
    }
    structuredQuery = try StructuredQuery(json: q)
    aggregations = try saq.array("aggregations").enumerated().map { try Aggregation(json: $1, index: $0) }
    consistency = try ReadConsistency.from(json)
    explainOptions = try ExplainRequestOptions.from(json)
  }
}

/// The body of `:commit`.
public struct CommitRequest: Sendable, Equatable, JSONWritable {
  /// The writes, applied atomically in order.
  public var writes: [Write]
  /// The transaction being committed, if any.
  public var transaction: String?

  /// Creates a request.
  public init(writes: [Write], transaction: String? = nil) {
    self.writes = writes
    self.transaction = transaction
  }

  /// Writes the REST JSON form.
  public func write<Output: JSONOutput>(to output: inout Output) {
    output.writeObject { out in
      out.writeKey("writes")
      out.writeArray(of: writes)
      if let transaction { out.write("transaction", transaction) }
    }
  }

  /// Consecutive writes as the body lists them (compact, separated by commas), so that a
  /// large batch's text can be written in parts, ahead of its commit.
  /// - Parameters:
  ///   - writes: the writes, in order.
  ///   - storage: memory to write into: emptied, its capacity used for the text.
  public static func encodedWrites(_ writes: some Sequence<Write>, into storage: consuming [UInt8] = []) -> [UInt8] {
    storage.removeAll(keepingCapacity: true)
    var output = JSONByteOutput(appendingTo: storage)
    for write in writes { write.write(to: &output) }
    return output.bytes
  }

  /// Appends the body of a commit whose writes were written ahead by ``encodedWrites(_:into:)``,
  /// `parts` in order, to `body`: the same text as ``JSONWritable/jsonBytes`` of the request.
  /// Each part is copied once, straight into `body`'s own storage.
  public static func appendBody<Body: RangeReplaceableCollection<UInt8>>(
    encodedWrites parts: [[UInt8]], transaction: String?, to body: inout Body
  ) {
    var count = 0
    forEachBodyPiece(encodedWrites: parts, transaction: transaction) { count += $0.count }
    body.reserveCapacity(body.count + count)
    forEachBodyPiece(encodedWrites: parts, transaction: transaction) { body.append(contentsOf: $0) }
  }

  /// Hands `take` the pieces of the body of a commit whose writes were written ahead by
  /// ``encodedWrites(_:into:)``, `parts` in order: one after another, the same text as
  /// ``JSONWritable/jsonBytes`` of the request. For a writer that places them itself.
  public static func forEachBodyPiece(
    encodedWrites parts: [[UInt8]], transaction: String?, _ take: (UnsafeRawBufferPointer) -> Void
  ) {
    // The commit with no writes, framed as every commit is; the parts go inside its empty
    // list of writes, which is the object's first member, so the first `]` closes it.
    let frame = CommitRequest(writes: [], transaction: transaction).jsonBytes
    guard let close = frame.firstIndex(of: UInt8(ascii: "]")) else { preconditionFailure("a commit lists its writes") }
    frame.withUnsafeBytes { frame in
      take(UnsafeRawBufferPointer(rebasing: frame[..<close]))
      var separated = false
      for part in parts where !part.isEmpty {
        if separated { withUnsafeBytes(of: UInt8(ascii: ",")) { take($0) } }
        part.withUnsafeBytes { take($0) }
        separated = true
      }
      take(UnsafeRawBufferPointer(rebasing: frame[close...]))
    }
  }

  /// Reads a request body.
  public init(json: JSONValue) throws {
    try json.requireObject("CommitRequest")
    writes = try json.array("writes").map(Write.init(json:))
    transaction = try json.optionalString("transaction")
  }
}

/// The body of `:partitionQuery`: split points for reading a collection group in parallel.
public struct PartitionQueryRequest: Sendable, Equatable {
  /// The query to split: a collection group (`allDescendants`) ordered by `__name__`
  /// ascending, with no filter, cursor, offset or limit.
  public var structuredQuery: StructuredQuery
  /// The most split points wanted (one fewer than the partitions); must be positive.
  public var partitionCount: Int64
  /// The token of the page to continue from.
  public var pageToken: String?
  /// The most split points in this reply.
  public var pageSize: Int32?
  /// Which snapshot to read (only a read time applies).
  public var consistency: ReadConsistency?

  /// Creates a request.
  public init(
    structuredQuery: StructuredQuery, partitionCount: Int64, pageToken: String? = nil, pageSize: Int32? = nil,
    consistency: ReadConsistency? = nil
  ) {
    self.structuredQuery = structuredQuery
    self.partitionCount = partitionCount
    self.pageToken = pageToken
    self.pageSize = pageSize
    self.consistency = consistency
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = [("structuredQuery", structuredQuery.json), ("partitionCount", .string(String(partitionCount)))]
    m.append("pageToken", pageToken.map(JSONValue.string))
    m.append("pageSize", pageSize.map { .number(String($0)) })
    consistency?.append(to: &m)
    return .object(m)
  }

  /// Reads a request body.
  public init(json: JSONValue) throws {
    guard let q = json["structuredQuery"] else { throw WireFormatError("missing \"structuredQuery\"") }
    structuredQuery = try StructuredQuery(json: q)
    partitionCount = try json.optionalInt64("partitionCount") ?? 0
    pageToken = try json.optionalString("pageToken")
    pageSize = try json.optionalInt64("pageSize").map { size in
      guard let value = Int32(exactly: size) else { throw WireFormatError("pageSize \(size) does not fit in 32 bits") }
      return value
    }
    consistency = try ReadConsistency.from(json)
  }
}
