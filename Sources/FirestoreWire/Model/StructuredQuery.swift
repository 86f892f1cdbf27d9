/// A Firestore query as the REST API carries it (`google.firestore.v1.StructuredQuery`).
///
/// Field paths are in their canonical string form, with names that are not plain
/// identifiers back-quoted, e.g. a.\`b-c\`.
public struct StructuredQuery: Sendable, Equatable {
  /// One `from` entry: a collection ID, optionally matching at any depth.
  public struct CollectionSelector: Sendable, Equatable {
    /// The collection ID; empty means any collection (only with `allDescendants`).
    public var collectionID: String
    /// Whether collections with this ID at any depth below the parent match.
    public var allDescendants: Bool

    /// Creates a selector.
    public init(collectionID: String, allDescendants: Bool = false) {
      self.collectionID = collectionID
      self.allDescendants = allDescendants
    }
  }

  /// An ordering on one field.
  public struct Order: Sendable, Equatable {
    /// The canonical field path.
    public var fieldPath: String
    /// Whether the order is descending.
    public var descending: Bool

    /// Creates an ordering.
    public init(fieldPath: String, descending: Bool) {
      self.fieldPath = fieldPath
      self.descending = descending
    }
  }

  /// A start or end position: values for the orderings, in order.
  public struct Cursor: Sendable, Equatable {
    /// One value per ordering, possibly fewer.
    public var values: [Value]
    /// Whether the position is just before `values` (start-at / end-before) rather than after.
    public var before: Bool

    /// Creates a cursor.
    public init(values: [Value], before: Bool) {
      self.values = values
      self.before = before
    }
  }

  /// The projection (`select`); `nil` returns whole documents. Never empty on the wire.
  public var select: [String]?
  /// The collections queried.
  public var from: [CollectionSelector]
  /// The filter, if any.
  public var filter: QueryFilter?
  /// The orderings, in order.
  public var orderBy: [Order]
  /// Where results start.
  public var startAt: Cursor?
  /// Where results end.
  public var endAt: Cursor?
  /// How many results to skip.
  public var offset: Int32?
  /// The most results to return.
  public var limit: Int32?
  /// A nearest-neighbour search over the filtered documents, if any.
  public var findNearest: FindNearest?

  /// Creates a query.
  public init(
    select: [String]? = nil, from: [CollectionSelector], filter: QueryFilter? = nil, orderBy: [Order] = [],
    startAt: Cursor? = nil, endAt: Cursor? = nil, offset: Int32? = nil, limit: Int32? = nil, findNearest: FindNearest? = nil
  ) {
    self.select = select
    self.from = from
    self.filter = filter
    self.orderBy = orderBy
    self.startAt = startAt
    self.endAt = endAt
    self.offset = offset
    self.limit = limit
    self.findNearest = findNearest
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    if let select {
      m.append(("select", .object([("fields", .array(select.map(Self.fieldReference)))])))
    }
    m.append(
      (
        "from",
        .array(
          from.map { sel in
            var o: [(String, JSONValue)] = []
            if !sel.collectionID.isEmpty { o.append(("collectionId", .string(sel.collectionID))) }
            if sel.allDescendants { o.append(("allDescendants", .bool(true))) }
            return .object(o)
          })
      ))
    m.append("where", filter?.json)
    if !orderBy.isEmpty {
      m.append(
        (
          "orderBy",
          .array(
            orderBy.map {
              .object([("field", Self.fieldReference($0.fieldPath)), ("direction", .string($0.descending ? "DESCENDING" : "ASCENDING"))])
            })
        ))
    }
    m.append("startAt", startAt.map(Self.json(cursor:)))
    m.append("endAt", endAt.map(Self.json(cursor:)))
    m.append("offset", offset.map { .number(String($0)) })
    m.append("limit", limit.map { .number(String($0)) })
    m.append("findNearest", findNearest?.json)
    return .object(m)
  }

  /// Reads a REST `StructuredQuery`.
  public init(json: JSONValue) throws {
    try json.requireObject("structuredQuery")
    if let projection = json["select"] {
      select = try projection.array("fields").map(Self.fieldPath(from:))
    }
    from = try json.array("from").map { sel in
      CollectionSelector(
        collectionID: try sel.optionalString("collectionId") ?? "", allDescendants: try sel.optionalBool("allDescendants") ?? false)
    }
    filter = try json["where"].map(QueryFilter.init(json:))
    orderBy = try json.array("orderBy").map { o in
      guard let field = o["field"] else { throw WireFormatError("orderBy entry lacks \"field\"") }
      let direction = try o.optionalString("direction") ?? "ASCENDING"
      guard direction == "ASCENDING" || direction == "DESCENDING" || direction == "DIRECTION_UNSPECIFIED" else {
        throw WireFormatError("unknown direction \"\(direction)\"")
      }
      return Order(fieldPath: try Self.fieldPath(from: field), descending: direction == "DESCENDING")
    }
    startAt = try json["startAt"].map(Self.cursor(from:))
    endAt = try json["endAt"].map(Self.cursor(from:))
    offset = try json.optionalInt64("offset").map { try Self.int32($0, "offset") }
    if let limit = json["limit"] {
      // Accept the bare number and the wrapper object form of Int32Value.
      let raw = limit["value"] ?? limit
      guard case .number(let s) = raw, let v = Int64(s) else { throw WireFormatError("limit must be an integer") }
      self.limit = try Self.int32(v, "limit")
    }
    findNearest = try json["findNearest"].map(FindNearest.init(json:))
  }

  private static func int32(_ v: Int64, _ name: String) throws -> Int32 {
    guard let i = Int32(exactly: v) else { throw WireFormatError("\(name) \(v) does not fit in 32 bits") }
    return i
  }

  static func fieldReference(_ path: String) -> JSONValue { .object([("fieldPath", .string(path))]) }

  static func fieldPath(from json: JSONValue) throws -> String {
    try json.requiredString("fieldPath")
  }

  static func json(cursor: Cursor) -> JSONValue {
    var o: [(String, JSONValue)] = [("values", .array(cursor.values.map(\.json)))]
    if cursor.before { o.append(("before", .bool(true))) }
    return .object(o)
  }

  static func cursor(from json: JSONValue) throws -> Cursor {
    Cursor(values: try json.array("values").map(Value.init(json:)), before: try json.optionalBool("before") ?? false)
  }
}
