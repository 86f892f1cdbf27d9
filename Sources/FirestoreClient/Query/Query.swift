import FirestoreWire

/// A query: which documents to read from a collection (or collection group), filtered,
/// ordered, bounded and projected.
///
/// A query never changes once made; each builder returns a new query. Builder misuse (an
/// invalid field path, 31 `in` values, a cursor before its ordering) is recorded and
/// thrown as `invalidArgument` by the read that would send the query, before any request.
///
/// ```swift
/// let snapshot = try await db.collection("articles")
///   .whereField("category", isEqualTo: "swift")
///   .order(by: "publishedAt", descending: true)
///   .limit(to: 20)
///   .getDocuments()
/// ```
///
/// As in the Apple SDK, `Query` is a class and ``CollectionReference`` is a `Query`, so code
/// written against that SDK compiles as it is:
///
/// ```swift
/// var query: Query = db.collection("articles")
/// if let category { query = query.whereField("category", isEqualTo: category) }
/// ```
///
/// Its instances are immutable, so sharing one is as safe as copying a value.
public class Query: @unchecked Sendable {
  // Unchecked only because the class is not final: every stored property is a `let` of a
  // Sendable type, and no class outside this module can subclass it (public, not open).

  /// How a cursor is given: by values for the orderings, or by a document.
  enum CursorSource: Sendable {
    case values([any Sendable])
    case document(DocumentSnapshot)
  }

  /// A start or end bound as the user gave it.
  struct Bound: Sendable {
    var source: CursorSource
    /// Whether the bound includes the position (`start(at:)`, `end(at:)`).
    var inclusive: Bool
  }

  enum LimitKind: Sendable { case first, last }

  /// The database queried.
  public let firestore: Firestore
  /// Everything the builders set.
  let definition: Definition

  init(firestore: Firestore, definition: Definition) {
    self.firestore = firestore
    self.definition = definition
  }

  convenience init(firestore: Firestore, parent: ResourcePath, collectionID: String, allDescendants: Bool) {
    self.init(firestore: firestore, definition: Definition(parent: parent, collectionID: collectionID, allDescendants: allDescendants))
  }

  /// The document under which collections are queried, or the root.
  var parentPath: ResourcePath { definition.parent }
  var collectionID: String { definition.collectionID }
  var allDescendants: Bool { definition.allDescendants }
  var filters: [Filter] { definition.filters }
  var orders: [(any FieldPathConvertible, Bool)] { definition.orders }
  var limitValue: Int? { definition.limitValue }
  var limitKind: LimitKind { definition.limitKind }
  var startBound: Bound? { definition.startBound }
  var endBound: Bound? { definition.endBound }
  var offsetValue: Int? { definition.offsetValue }
  var projection: [any FieldPathConvertible]? { definition.projection }
  /// The first builder misuse, thrown by every read.
  var recordedError: FirestoreError? { definition.recordedError }
}

/// Anything that can be queried: a ``Query``, which includes a ``CollectionReference``.
///
/// The query builders and reads are defined on it, so generic code can take
/// `some QueryConvertible`; code ported from the Apple SDK simply takes a ``Query``.
public protocol QueryConvertible: Sendable {
  /// The query this value stands for.
  var query: Query { get }
}

extension Query: QueryConvertible {
  /// The query itself.
  public var query: Query { self }
}

extension QueryConvertible {
  private func with(_ change: (inout Query.Definition) -> Void) -> Query {
    let q = query
    var definition = q.definition
    change(&definition)
    return Query(firestore: q.firestore, definition: definition)
  }

  /// Only documents matching `filter`; filters combine with AND.
  public func whereFilter(_ filter: Filter) -> Query { with { $0.filters.append(filter) } }

  /// Documents whose field equals `value` (`nil` matches null, `Double.nan` matches NaN).
  public func whereField(_ field: some FieldPathConvertible, isEqualTo value: Any) -> Query {
    whereFilter(.whereField(field, isEqualTo: value))
  }
  /// Documents whose field exists and differs from `value`.
  public func whereField(_ field: some FieldPathConvertible, isNotEqualTo value: Any) -> Query {
    whereFilter(.whereField(field, isNotEqualTo: value))
  }
  /// Documents whose field sorts before `value`.
  public func whereField(_ field: some FieldPathConvertible, isLessThan value: Any) -> Query {
    whereFilter(.whereField(field, isLessThan: value))
  }
  /// Documents whose field sorts before or equal to `value`.
  public func whereField(_ field: some FieldPathConvertible, isLessThanOrEqualTo value: Any) -> Query {
    whereFilter(.whereField(field, isLessThanOrEqualTo: value))
  }
  /// Documents whose field sorts after `value`.
  public func whereField(_ field: some FieldPathConvertible, isGreaterThan value: Any) -> Query {
    whereFilter(.whereField(field, isGreaterThan: value))
  }
  /// Documents whose field sorts after or equal to `value`.
  public func whereField(_ field: some FieldPathConvertible, isGreaterThanOrEqualTo value: Any) -> Query {
    whereFilter(.whereField(field, isGreaterThanOrEqualTo: value))
  }
  /// Documents whose array field contains `value`.
  public func whereField(_ field: some FieldPathConvertible, arrayContains value: Any) -> Query {
    whereFilter(.whereField(field, arrayContains: value))
  }
  /// Documents whose array field contains any of `values` (1 to 30).
  public func whereField(_ field: some FieldPathConvertible, arrayContainsAny values: [Any]) -> Query {
    whereFilter(.whereField(field, arrayContainsAny: values))
  }
  /// Documents whose field equals one of `values` (1 to 30).
  public func whereField(_ field: some FieldPathConvertible, in values: [Any]) -> Query {
    whereFilter(.whereField(field, in: values))
  }
  /// Documents whose field exists and equals none of `values` (1 to 10).
  public func whereField(_ field: some FieldPathConvertible, notIn values: [Any]) -> Query {
    whereFilter(.whereField(field, notIn: values))
  }

  /// Orders results by a field (documents without the field are left out, as in Firestore).
  /// Orderings must come before cursors.
  public func order(by field: some FieldPathConvertible, descending: Bool = false) -> Query {
    with { q in
      if q.startBound != nil || q.endBound != nil {
        q.recordError(.invalidArgument("order(by:) must be called before start(at:)/start(after:)/end(at:)/end(before:)"))
      }
      q.orders.append((field, descending))
    }
  }

  /// At most `limit` results, from the start of the order. `limit` must be positive.
  public func limit(to limit: Int) -> Query {
    with { q in
      if limit <= 0 || limit > Int(Int32.max) { q.recordError(.invalidArgument("limit(to:) must be in 1...\(Int32.max), got \(limit)")) }
      q.limitValue = limit
      q.limitKind = .first
    }
  }

  /// The last `limit` results of the order, returned in query order. Needs at least one
  /// ``order(by:descending:)``.
  public func limit(toLast limit: Int) -> Query {
    with { q in
      if limit <= 0 || limit > Int(Int32.max) {
        q.recordError(.invalidArgument("limit(toLast:) must be in 1...\(Int32.max), got \(limit)"))
      }
      q.limitValue = limit
      q.limitKind = .last
    }
  }

  /// Skips the first `offset` results (they are still read and billed by Firestore).
  public func offset(_ offset: Int) -> Query {
    with { q in
      if offset < 0 || offset > Int(Int32.max) { q.recordError(.invalidArgument("offset(_:) must be in 0...\(Int32.max), got \(offset)")) }
      q.offsetValue = offset
    }
  }

  /// Returns only these fields of each document. An empty list returns document IDs only.
  public func select(_ fields: [any FieldPathConvertible]) -> Query {
    with { $0.projection = fields }
  }

  /// Returns document IDs (and metadata) only, no fields: the cheapest way to list what matches.
  public func selectDocumentIDs() -> Query { select([FieldPath.documentID()]) }

  /// Starts at the position given by values for the orderings (inclusive).
  public func start(at values: [Any]) -> Query {
    with { $0.startBound = Query.Bound(source: .values(UserData.sendable(values)), inclusive: true) }
  }
  /// Starts just after the position given by values for the orderings.
  public func start(after values: [Any]) -> Query {
    with { $0.startBound = Query.Bound(source: .values(UserData.sendable(values)), inclusive: false) }
  }
  /// Ends at the position given by values for the orderings (inclusive).
  public func end(at values: [Any]) -> Query {
    with { $0.endBound = Query.Bound(source: .values(UserData.sendable(values)), inclusive: true) }
  }
  /// Ends just before the position given by values for the orderings.
  public func end(before values: [Any]) -> Query {
    with { $0.endBound = Query.Bound(source: .values(UserData.sendable(values)), inclusive: false) }
  }

  /// Starts at a document (inclusive), using its values for every ordering and its ID last.
  public func start(atDocument document: DocumentSnapshot) -> Query {
    with { $0.startBound = Query.Bound(source: .document(document), inclusive: true) }
  }
  /// Starts just after a document: the usual way to fetch the next page.
  public func start(afterDocument document: DocumentSnapshot) -> Query {
    with { $0.startBound = Query.Bound(source: .document(document), inclusive: false) }
  }
  /// Ends at a document (inclusive).
  public func end(atDocument document: DocumentSnapshot) -> Query {
    with { $0.endBound = Query.Bound(source: .document(document), inclusive: true) }
  }
  /// Ends just before a document.
  public func end(beforeDocument document: DocumentSnapshot) -> Query {
    with { $0.endBound = Query.Bound(source: .document(document), inclusive: false) }
  }
}

extension QueryConvertible {
  /// Starts at a query result (inclusive).
  public func start(atDocument document: QueryDocumentSnapshot) -> Query { start(atDocument: document.snapshot) }
  /// Starts just after a query result: pass the last document of a page to get the next.
  public func start(afterDocument document: QueryDocumentSnapshot) -> Query { start(afterDocument: document.snapshot) }
  /// Ends at a query result (inclusive).
  public func end(atDocument document: QueryDocumentSnapshot) -> Query { end(atDocument: document.snapshot) }
  /// Ends just before a query result.
  public func end(beforeDocument document: QueryDocumentSnapshot) -> Query { end(beforeDocument: document.snapshot) }
}
