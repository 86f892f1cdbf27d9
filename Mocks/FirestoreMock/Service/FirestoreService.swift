import FirestoreWire
import Foundation

/// Answers Firestore REST requests from a ``MockStore`` with the emulator's JSON shapes,
/// status codes and error bodies.
struct FirestoreService: Sendable {
  /// The emulator's limit on one request message.
  static let maximumMessageBytes = 4 * 1_048_576

  let store: MockStore
  let faults: FaultInjector
  let requestLog: RequestLog
  /// Serves the Listen WebChannel.
  let listen: ListenChannelService

  /// Routes one request. Never throws: every failure becomes an error response.
  func handle(_ request: MockHTTPRequest) -> MockHTTPResponse {
    do {
      return try route(request)
    } catch {
      return .json(error.httpStatus, error.json)
    }
  }

  private func route(_ request: MockHTTPRequest) throws(MockError) -> MockHTTPResponse {
    if request.path == "/" && request.method == "GET" { return .text(200, "Ok") }
    if request.path.hasPrefix("/mock/v1/") { return try admin(request) }
    if ListenChannelService.handles(request) { return listen.handle(request) }
    if request.method == "DELETE", let db = Self.resetTarget(request.rawPath) {
      store.reset(database: db)
      return .json(200, .object([]))
    }
    guard let route = RESTRoute(rawPath: request.rawPath) else { return .text(404, "Not Found") }
    switch (request.method, route.operation) {
    case ("POST", "commit"?): return try commit(request, route)
    case ("POST", "batchWrite"?): return try batchWrite(request, route)
    case ("POST", "batchGet"?): return try batchGet(request, route)
    case ("POST", "runQuery"?): return try runQuery(request, route)
    case ("POST", "runAggregationQuery"?): return try runAggregationQuery(request, route)
    case ("POST", "partitionQuery"?): return try partitionQuery(request, route)
    case ("POST", "executePipeline"?): return try executePipeline(request, route)
    case ("POST", "beginTransaction"?): return try beginTransaction(request, route)
    case ("POST", "rollback"?): return try rollback(request, route)
    case ("POST", "listCollectionIds"?): return try listCollectionIDs(request, route)
    case ("GET", nil) where route.segments.count % 2 == 0 && !route.segments.isEmpty: return try get(request, route)
    case ("GET", nil) where route.segments.count % 2 == 1: return try listDocuments(request, route)
    case ("POST", nil) where route.segments.count % 2 == 1: return try create(request, route)
    case ("PATCH", nil) where route.segments.count % 2 == 0 && !route.segments.isEmpty: return try patch(request, route)
    case ("DELETE", nil) where route.segments.count % 2 == 0 && !route.segments.isEmpty: return try delete(request, route)
    default: return .text(404, "Not Found")
    }
  }

  /// `/emulator/v1/projects/{p}/databases/{d}/documents` → `projects/{p}/databases/{d}`.
  static func resetTarget(_ rawPath: String) -> String? {
    let parts = rawPath.split(separator: "/").map(String.init)
    guard parts.count == 7, parts[0] == "emulator", parts[1] == "v1", parts[2] == "projects", parts[4] == "databases",
      parts[6] == "documents", let project = RESTRoute.decode(parts[3]), let database = RESTRoute.decode(parts[5])
    else { return nil }
    return "projects/\(project)/databases/\(database)"
  }

  // MARK: - Request bodies

  func body(_ request: MockHTTPRequest) throws(MockError) -> JSONValue {
    if request.body.isEmpty { return .object([]) }
    do {
      let json = try JSONParser.parse(request.body)
      guard case .object = json else { throw MockError.invalidArgument("Payload isn't valid for request.") }
      return json
    } catch let error as MockError {
      throw error
    } catch {
      throw .invalidArgument("Payload isn't valid for request.")
    }
  }

  func decode<T>(_ body: () throws -> T) throws(MockError) -> T {
    do {
      return try body()
    } catch let error as MockError {
      throw error
    } catch {
      throw .invalidArgument("Payload isn't valid for request. \(error)")
    }
  }

  private func maskPaths(_ request: MockHTTPRequest, _ name: String) -> [String]? {
    let values = request.queryValues(name)
    return values.isEmpty ? nil : values
  }

  private func precondition(_ request: MockHTTPRequest) throws(MockError) -> Precondition? {
    if let exists = request.queryValue("currentDocument.exists") {
      guard exists == "true" || exists == "false" else { throw .invalidArgument("Invalid value for currentDocument.exists") }
      return .exists(exists == "true")
    }
    if let text = request.queryValue("currentDocument.updateTime") {
      do {
        return .updateTime(try Timestamp(rfc3339: text))
      } catch {
        throw .invalidArgument("Invalid value for currentDocument.updateTime")
      }
    }
    return nil
  }

  // MARK: - Single documents

  /// A GET's read time, given by its fields (`readTime.seconds`, `readTime.nanos`) as the
  /// emulator takes it.
  private func readTime(_ request: MockHTTPRequest) -> ReadConsistency? {
    guard let seconds = request.queryValue("readTime.seconds"), let s = Int64(seconds) else { return nil }
    return .readTime(Timestamp(seconds: s, nanoseconds: Int32(request.queryValue("readTime.nanos").flatMap { Int32($0) } ?? 0)))
  }

  private func get(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let (documents, _) = try store.get(route.database, paths: [route.path], consistency: readTime(request))
    guard let document = documents.first?.1 else {
      throw MockError(.notFound, "Document (\(route.database)/documents/\(route.path)) not found.")
    }
    let projected = maskPaths(request, "mask.fieldPaths").map { QueryEngine.project(document, onto: $0) } ?? document
    return .json(200, projected.json)
  }

  private func create(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let json = try body(request)
    let fields = try decode { try Value.fields(from: json["fields"]) }
    let id = request.queryValue("documentId") ?? AutoID.make()
    let name = "\(route.database)/documents/\(route.path)/\(id)"
    _ = try store.commit(
      route.database, writes: [Write(operation: .update(Document(name: name, fields: fields)), currentDocument: .exists(false))],
      transaction: nil)
    return try reread(route.database, name: name, mask: maskPaths(request, "mask.fieldPaths"))
  }

  private func patch(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let json = try body(request)
    let fields = try decode { try Value.fields(from: json["fields"]) }
    let name = "\(route.database)/documents/\(route.path)"
    let write = Write(
      operation: .update(Document(name: name, fields: fields)), updateMask: maskPaths(request, "updateMask.fieldPaths"),
      currentDocument: try precondition(request))
    _ = try store.commit(route.database, writes: [write], transaction: nil)
    return try reread(route.database, name: name, mask: maskPaths(request, "mask.fieldPaths"))
  }

  private func delete(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let name = "\(route.database)/documents/\(route.path)"
    _ = try store.commit(
      route.database, writes: [Write(operation: .delete(name), currentDocument: try precondition(request))], transaction: nil)
    return .json(200, .object([]))
  }

  private func reread(_ db: String, name: String, mask: [String]?) throws(MockError) -> MockHTTPResponse {
    let path = try store.relativePath(name, db: db)
    guard let document = try store.get(db, paths: [path], consistency: nil).documents.first?.1 else {
      throw MockError(.internal, "document vanished after write")
    }
    return .json(200, (mask.map { QueryEngine.project(document, onto: $0) } ?? document).json)
  }

  // MARK: - Batch reads and queries

  private func batchGet(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let parsed = try decode { try BatchGetRequest(json: body(request)) }
    var seen = Set<String>()
    var paths: [String] = []
    for name in parsed.documents {
      let path = try store.relativePath(name, db: route.database)
      if seen.insert(path).inserted { paths.append(path) }
    }
    let (documents, context) = try store.get(route.database, paths: paths, consistency: parsed.consistency)
    var elements: [JSONValue] = []
    if let id = context.newTransaction { elements.append(BatchGetResponse(result: .transaction(id), readTime: nil).json) }
    for (path, document) in documents {
      let result: BatchGetResponse.Result
      if let document {
        result = .found(parsed.mask.map { QueryEngine.project(document, onto: $0) } ?? document)
      } else {
        result = .missing("\(route.database)/documents/\(path)")
      }
      elements.append(BatchGetResponse(result: result, readTime: context.readTime).json)
    }
    return Self.streamedArray(elements)
  }

  private func runQuery(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let parsed = try decode { try RunQueryRequest(json: body(request)) }
    let started = ContinuousClock.now
    let (documents, context, scanned) = try execute(parsed.structuredQuery, route: route, consistency: parsed.consistency)
    if let explain = parsed.explainOptions {
      let report = ExplainPlanner.queryReport(
        parsed.structuredQuery, analyze: explain.analyze, returned: documents.count, scanned: scanned,
        seconds: Self.seconds(since: started))
      // Without `analyze` the query is only planned: no results, only the plan.
      let results = explain.analyze ? documents : []
      var elements = Self.queryElements(results, context)
      elements[elements.count - 1] = Self.adding(report, to: elements[elements.count - 1])
      return Self.streamedArray(elements)
    }
    return Self.streamedArray(Self.queryElements(documents, context))
  }

  /// A `:runQuery` reply's elements: a transaction first when one was opened, then the
  /// documents; `done` rides on the last document, or on a lone element when nothing matched.
  private static func queryElements(_ documents: [Document], _ context: MockStore.ReadContext) -> [JSONValue] {
    var elements: [JSONValue] = []
    if let id = context.newTransaction { elements.append(RunQueryResponse(transaction: id).json) }
    for document in documents { elements.append(RunQueryResponse(document: document, readTime: context.readTime).json) }
    if documents.isEmpty {
      elements.append(RunQueryResponse(readTime: context.readTime, done: true).json)
    } else {
      elements[elements.count - 1] = RunQueryResponse(document: documents.last, readTime: context.readTime, done: true).json
    }
    return elements
  }

  /// A reply element with `explainMetrics` added, as production sends them: once, on the
  /// last element.
  private static func adding(_ report: ExplainReport, to element: JSONValue) -> JSONValue {
    guard case .object(let members) = element else { return element }
    return .object(members + [("explainMetrics", report.json)])
  }

  private static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  private func runAggregationQuery(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let parsed = try decode { try RunAggregationQueryRequest(json: body(request)) }
    try AggregationEngine.validate(parsed.aggregations, query: parsed.structuredQuery)
    let started = ContinuousClock.now
    let (documents, context, scanned) = try execute(
      parsed.structuredQuery, route: route, consistency: parsed.consistency,
      aggregationFields: AggregationEngine.fieldPaths(of: parsed.aggregations))
    var elements: [JSONValue] = []
    if let id = context.newTransaction {
      elements.append(RunAggregationQueryResponse(aggregateFields: nil, transaction: id, readTime: nil).json)
    }
    let analyzed = parsed.explainOptions.map(\.analyze) ?? true
    let fields = analyzed ? AggregationEngine.aggregate(parsed.aggregations, over: documents) : nil
    elements.append(RunAggregationQueryResponse(aggregateFields: fields, readTime: context.readTime).json)
    if let explain = parsed.explainOptions {
      let report = ExplainPlanner.aggregationReport(
        parsed.structuredQuery, analyze: explain.analyze, matched: documents.count, scanned: scanned,
        seconds: Self.seconds(since: started))
      elements[elements.count - 1] = Self.adding(report, to: elements[elements.count - 1])
    }
    return Self.streamedArray(elements)
  }

  /// `:partitionQuery`, which the emulator does not implement (it answers 501
  /// UNIMPLEMENTED, verified), as production documents it: the query must be a collection
  /// group ordered by `__name__` ascending with nothing else, under the database root; the
  /// reply holds at most `partitionCount` split points, each a cursor on one document
  /// reference, in `__name__` order, so that the ranges between them cover the group once.
  /// The mock picks evenly spaced documents; fewer points come back when the group has too
  /// few documents (production: "the actual number of partitions returned may be fewer").
  /// Pages of `pageSize` points continue with `nextPageToken`.
  private func partitionQuery(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let parsed = try decode { try PartitionQueryRequest(json: body(request)) }
    if !route.segments.isEmpty {
      throw .invalidArgument("partitionQuery takes the database's documents root as its parent, not a document.")
    }
    try PartitionRules.validate(parsed)
    let (candidates, _) = try store.candidates(
      route.database, parent: "", selectors: parsed.structuredQuery.from, consistency: parsed.consistency)
    let points = PartitionRules.splitPoints(of: candidates.map(\.name), count: Int(parsed.partitionCount))
    var start = 0
    if let token = parsed.pageToken, !token.isEmpty {
      guard let offset = Int(token), offset >= 0, offset <= points.count else { throw .invalidArgument("Invalid page token.") }
      start = offset
    }
    let size = parsed.pageSize.map { Int(max($0, 0)) }.flatMap { $0 == 0 ? nil : $0 } ?? points.count
    let end = min(points.count, start + size)
    let page = points[start..<end].map { StructuredQuery.Cursor(values: [.reference($0)], before: true) }
    let next = end < points.count ? String(end) : nil
    return .json(200, PartitionQueryResponse(partitions: Array(page), nextPageToken: next).json)
  }

  /// Runs a structured query under the route's parent document (or the root); also
  /// returns how many documents it examined.
  private func execute(
    _ query: StructuredQuery, route: RESTRoute, consistency: ReadConsistency?, aggregationFields: [String]? = nil
  ) throws(MockError) -> ([Document], MockStore.ReadContext, Int) {
    guard route.segments.count % 2 == 0 else { throw .invalidArgument("The parent of a query must be a document.") }
    for selector in query.from where selector.collectionID.contains("/") {
      throw .invalidArgument("Collection id \"\(selector.collectionID)\" is invalid because it contains \"/\".")
    }
    let (candidates, context) = try store.candidates(route.database, parent: route.path, selectors: query.from, consistency: consistency)
    let results: [Document]
    if let aggregationFields {
      results = try QueryEngine.execute(query, over: candidates, aggregationFields: aggregationFields)
    } else {
      results = try QueryEngine.execute(query, over: candidates)
    }
    if let id = context.transaction {
      store.lock(try results.map { d throws(MockError) in try store.relativePath(d.name, db: route.database) }, transaction: id)
    }
    return (results, context, candidates.count)
  }

  /// A JSON array sent element by element with chunked encoding, as production streams it.
  static func streamedArray(_ elements: [JSONValue]) -> MockHTTPResponse {
    MockHTTPResponse(
      status: 200, headers: [("content-type", "application/json; charset=utf-8")],
      body: .streaming { writer in
        try writer.write(Array("[".utf8))
        for (i, element) in elements.enumerated() {
          var bytes: [UInt8] = i == 0 ? [] : [UInt8(ascii: ",")]
          JSONWriter.write(element, into: &bytes)
          try writer.write(bytes)
        }
        try writer.write(Array("]".utf8))
      })
  }

  // MARK: - Writes and transactions

  private func commit(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let parsed = try decode { try CommitRequest(json: body(request)) }
    // The emulator's gRPC layer refuses messages over 4 MiB (production allows 10 MiB);
    // the documents' stored size is a close stand-in for that message size.
    let size = parsed.writes.reduce(0) { total, write in
      guard case .update(let document) = write.operation else { return total + write.documentName.utf8.count }
      return total + DocumentSize.of(name: document.name, fields: document.fields)
    }
    if size > Self.maximumMessageBytes {
      throw MockError(.resourceExhausted, "gRPC message exceeds maximum size \(Self.maximumMessageBytes): \(size)")
    }
    return .json(200, try store.commit(route.database, writes: parsed.writes, transaction: parsed.transaction).json)
  }

  /// `:batchWrite`, as the emulator answers it: every write applied on its own (not
  /// atomically), in order, each with a result and a status (`{}` for OK, else the gRPC code
  /// number and message); a request naming one document twice is refused as a whole.
  private func batchWrite(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let parsed = try decode { try BatchWriteRequest(json: body(request)) }
    var names = Set<String>()
    var size = 0
    for write in parsed.writes {
      if !names.insert(write.documentName).inserted {
        throw .invalidArgument("the same document cannot be written more than once in a single request")
      }
      if case .update(let document) = write.operation {
        size += DocumentSize.of(name: document.name, fields: document.fields)
      } else {
        size += write.documentName.utf8.count
      }
    }
    if size > Self.maximumMessageBytes {
      throw MockError(.resourceExhausted, "gRPC message exceeds maximum size \(Self.maximumMessageBytes): \(size)")
    }
    var results: [CommitResponse.WriteResult] = []
    var statuses: [BatchWriteResponse.Status] = []
    for write in parsed.writes {
      do throws(MockError) {
        let reply = try store.commit(route.database, writes: [write], transaction: nil)
        results.append(reply.writeResults.first ?? .init(updateTime: nil))
        statuses.append(.init(code: 0))
      } catch {
        results.append(.init(updateTime: nil))
        statuses.append(.init(code: error.code.rawValue, message: error.message))
      }
    }
    return .json(200, BatchWriteResponse(writeResults: results, status: statuses).json)
  }

  private func beginTransaction(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let json = try body(request)
    let options = try decode { try json["options"].map(TransactionOptions.init(json:)) ?? .readWrite(retrying: nil) }
    return .json(200, .object([("transaction", .string(try store.begin(route.database, options: options)))]))
  }

  private func rollback(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let json = try body(request)
    guard let id = json["transaction"]?.stringValue else { throw .invalidArgument("Invalid transaction.") }
    try store.rollback(route.database, id: id)
    return .json(200, .object([]))
  }

  // MARK: - Listing

  private func listDocuments(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let pageSize = request.queryValue("pageSize").flatMap { Int($0) } ?? 300
    if pageSize < 0 { throw .invalidArgument("page_size must not be negative") }
    let showMissing = request.queryValue("showMissing") == "true"
    var entries = try store.list(route.database, collection: route.path, showMissing: showMissing, consistency: readTime(request))
    if request.queryValue("orderBy")?.hasSuffix("desc") == true { entries.reverse() }
    var start = 0
    if let token = request.queryValue("pageToken"), !token.isEmpty {
      guard let data = Data(base64Encoded: token), let after = String(data: data, encoding: .utf8) else {
        throw .invalidArgument("Invalid page token.")
      }
      start = entries.firstIndex { $0.path == after }.map { $0 + 1 } ?? entries.count
    }
    let end = pageSize == 0 ? entries.count : min(entries.count, start + pageSize)
    let page = entries[start..<end]
    let mask = maskPaths(request, "mask.fieldPaths")
    let documents = page.map { entry in
      entry.document.map { d in mask.map { QueryEngine.project(d, onto: $0) } ?? d }
        ?? Document(name: "\(route.database)/documents/\(entry.path)")
    }
    // Like the emulator, a full page carries a token even when nothing follows it.
    let token = pageSize > 0 && page.count == pageSize ? page.last.map { Data($0.path.utf8).base64EncodedString() } : nil
    return .json(200, ListDocumentsResponse(documents: documents, nextPageToken: token).json)
  }

  private func listCollectionIDs(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    let json = try body(request)
    let pageSize = Int(try decode { try json.optionalInt64("pageSize") } ?? 0)
    let consistency = try decode { try ReadConsistency.from(json) }
    var ids = try store.collectionIDs(route.database, parent: route.path, consistency: consistency)
    if let token = try decode({ try json.optionalString("pageToken") }), !token.isEmpty {
      guard let data = Data(base64Encoded: token), let after = String(data: data, encoding: .utf8) else {
        throw .invalidArgument("Invalid page token.")
      }
      ids = ids.filter { after.utf8.lexicographicallyPrecedes($0.utf8) }
    }
    var next: String?
    if pageSize > 0 && ids.count > pageSize {
      ids = Array(ids.prefix(pageSize))
      next = Data(ids.last!.utf8).base64EncodedString()
    }
    return .json(200, ListCollectionIDsResponse(collectionIDs: ids, nextPageToken: next).json)
  }

  // MARK: - Admin

  /// `/mock/v1/faults` (POST a rule, DELETE all), `/mock/v1/faults:release` (POST
  /// `{"hold":"name"}`: let the requests held there go on; answers how many arrived),
  /// `/mock/v1/requests` (GET the log, DELETE to
  /// clear), `/mock/v1/listen:cut` (POST: cut every open Listen back channel, as a dropped
  /// connection would).
  private func admin(_ request: MockHTTPRequest) throws(MockError) -> MockHTTPResponse {
    switch (request.method, request.path) {
    case ("POST", "/mock/v1/faults"):
      let rule = try decode { try FaultRule.parse(json: body(request)) }
      faults.add(rule)
      return .json(200, .object([("rules", .array(faults.rules.map(\.json)))]))
    case ("GET", "/mock/v1/faults"):
      return .json(200, .object([("rules", .array(faults.rules.map(\.json)))]))
    case ("POST", "/mock/v1/faults:release"):
      guard let name = try body(request)["hold"]?.stringValue else { throw .invalidArgument("expected {\"hold\": \"name\"}") }
      faults.release(name)
      return .json(200, .object([("arrivals", .integer(Int64(faults.arrivals(at: name))))]))
    case ("DELETE", "/mock/v1/faults"):
      faults.removeAll()
      return .json(200, .object([]))
    case ("GET", "/mock/v1/requests"):
      return .json(200, .object([("requests", .array(requestLog.entries.map(\.json)))]))
    case ("DELETE", "/mock/v1/requests"):
      requestLog.clear()
      return .json(200, .object([]))
    case ("POST", "/mock/v1/listen:cut"):
      listen.sessions.cutBackChannels()
      return .json(200, .object([]))
    default:
      return .text(404, "Not Found")
    }
  }
}
