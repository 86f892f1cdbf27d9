import FirestoreEngine
import FirestoreWire

/// What field indexes can do for one query on the cache: which stored index narrows its
/// candidates best, the key ranges to read from it, and which index to create for it.
///
/// An index only narrows: the store still runs the whole query in memory over what the
/// ranges return, so a range may hold more than the query matches but never less. Hence
/// the rules:
/// * only the conjuncts of the top-level `AND` count; an `OR` inside it narrows nothing;
/// * every ordered field of the index must be one each result has (a filter on it, or an
///   ordering of the query): a document lacking it has no entry;
/// * a contains segment needs an `array-contains(-any)` on its field;
/// * `==`, `in`, `array-contains(-any)` narrow to exact keys and `<`, `<=`, `>`, `>=` to a
///   range of the operand's type; a `null` or `NaN` operand, `!=`, `not-in` and the unary
///   filters narrow nothing (the field is still known to be present);
/// * a vector search (`findNearest`) uses no index.
struct QueryIndexMatcher {
  /// The ranges to read from one index: for each array element key (`[]` without a contains
  /// segment), keys from `lower` (inclusive) up to `upper` (exclusive; `nil`: no end).
  struct Scan: Equatable {
    struct Range: Equatable {
      let arrayValue: [UInt8]
      let lower: [UInt8]
      let upper: [UInt8]?
    }

    let indexID: Int64
    let ranges: [Range]
    /// How many of the index's segments narrow the ranges; the best index has the most.
    let narrowedSegments: Int
  }

  /// A range of values of one type, as key bytes: keys from `lower` up to the end of the
  /// keys that begin with `upper`.
  private struct Bounds {
    var lower: [UInt8]
    var upper: [UInt8]
  }

  /// The most ranges one scan may read; an `in` that would multiply them further narrows
  /// nothing from its segment on.
  static let maximumRanges = 1000

  /// Fields (canonical paths) every result has.
  private var present = Set<String>()
  /// Values one of which each result's field equals (`==`, `in`).
  private var equalities: [String: [Value]] = [:]
  /// Values one of which each result's array contains.
  private var contained: [String: [Value]] = [:]
  private var bounds: [String: Bounds] = [:]
  /// For the index to create: the fields of equality filters in query order, of
  /// `array-contains(-any)`, and of inequalities (as the Apple SDK classes them).
  private var equalityFields: [String] = []
  private var arrayFields: [String] = []
  private var inequalityFields = Set<String>()
  private var hasDisjunction = false
  private let order: [StructuredQuery.Order]

  /// Reads `query`; `nil` when no index can serve it: a vector search, or a query that
  /// matches every document of its collection (no filter, limit, cursor or ordering but
  /// by name), which a scan reads best.
  init?(_ query: StructuredQuery) {
    guard query.findNearest == nil else { return nil }
    let ordersOnlyByName = query.orderBy.allSatisfy { $0.fieldPath == CanonicalFieldPath.documentKey }
    if query.filter == nil && query.limit == nil && query.startAt == nil && query.endAt == nil && ordersOnlyByName {
      return nil
    }
    order = QueryEvaluator.normalizedOrder(query)
    for ordering in order {
      let names = QueryEvaluator.segments(ordering.fieldPath)
      if !QueryEvaluator.isDocumentKey(names) { present.insert(CanonicalFieldPath.encode(names)) }
    }
    if let filter = query.filter { add(filter) }
  }

  private mutating func add(_ filter: QueryFilter) {
    switch filter {
    case .composite(.and, let filters):
      for filter in filters { add(filter) }
    case .composite:
      hasDisjunction = true
    case .unary(let path, let op):
      let names = QueryEvaluator.segments(path)
      let field = CanonicalFieldPath.encode(names)
      // As the Apple SDK sees them: `IS_NULL` and `IS_NAN` are equalities, the others `!=`.
      if op == .isNull || op == .isNaN { equalityFields.append(field) } else { inequalityFields.insert(field) }
      if !QueryEvaluator.isDocumentKey(names) { present.insert(field) }
    case .field(let path, let op, let operand):
      let names = QueryEvaluator.segments(path)
      let field = CanonicalFieldPath.encode(names)
      switch op {
      case .equal, .in: equalityFields.append(field)
      case .arrayContains, .arrayContainsAny: arrayFields.append(field)
      default: inequalityFields.insert(field)
      }
      guard !QueryEvaluator.isDocumentKey(names) else { return }
      present.insert(field)
      narrow(field, op, operand)
    }
  }

  /// Records what a field filter says about the keys of the documents it can match.
  private mutating func narrow(_ field: String, _ op: QueryFilter.FieldOperator, _ operand: Value) {
    switch op {
    case .equal:
      if Self.isSearchable(operand) && equalities[field] == nil { equalities[field] = [operand] }
    case .in:
      // `null` and `NaN` in the list match nothing.
      guard case .array(let list) = operand, equalities[field] == nil else { return }
      equalities[field] = list.filter(Self.isSearchable)
    case .arrayContains:
      if Self.isSearchable(operand) && contained[field] == nil { contained[field] = [operand] }
    case .arrayContainsAny:
      guard case .array(let list) = operand, contained[field] == nil else { return }
      contained[field] = list.filter(Self.isSearchable)
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
      guard Self.isSearchable(operand) else { return }
      // Only values of the operand's type class match; the operand itself is kept in
      // (exclusive bounds are left to the query).
      let key = ValueOrderingKey.encode(operand)
      let type = [ValueOrderingKey.typePrefix(of: operand)]
      let new = op == .lessThan || op == .lessThanOrEqual ? Bounds(lower: type, upper: key) : Bounds(lower: key, upper: type)
      guard let old = bounds[field] else {
        bounds[field] = new
        return
      }
      bounds[field] = Bounds(lower: Self.larger(old.lower, new.lower), upper: Self.tighter(old.upper, new.upper))
    case .notEqual, .notIn:
      break
    }
  }

  /// Whether an equality or range on `value` can be read from keys: not `null` or `NaN`,
  /// which such filters never match at the top level.
  private static func isSearchable(_ value: Value) -> Bool {
    switch value {
    case .null: return false
    case .double(let d): return !d.isNaN
    default: return true
    }
  }

  private static func larger(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { a.lexicographicallyPrecedes(b) ? b : a }

  /// Of two upper bounds (prefixes whose keys are included), the one that ends first.
  private static func tighter(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
    switch (ValueOrderingKey.successor(ofPrefix: a), ValueOrderingKey.successor(ofPrefix: b)) {
    case (nil, _): return b
    case (_, nil): return a
    case (let x?, let y?): return y.lexicographicallyPrecedes(x) ? b : a
    }
  }

  // MARK: - Using an index

  /// The best of `indexes` for the query: the one whose ranges are narrowed by the most
  /// segments (ties to the one with more segments), or `nil` when none can serve it.
  func bestScan(among indexes: [FieldIndex]) -> Scan? {
    var best: (scan: Scan, segments: Int)?
    for index in indexes {
      guard let scan = scan(using: index) else { continue }
      if let current = best,
        (current.scan.narrowedSegments, current.segments) >= (scan.narrowedSegments, index.segments.count)
      {
        continue
      }
      best = (scan, index.segments.count)
    }
    return best?.scan
  }

  /// The ranges of `index` that hold every document the query can match, or `nil` when
  /// the index cannot serve it.
  func scan(using index: FieldIndex) -> Scan? {
    var narrowed = 0
    var arrayValues: [[UInt8]] = [[]]
    if let arraySegment = index.arraySegment {
      guard let values = contained[arraySegment.fieldPath] else { return nil }
      arrayValues = Self.unique(values.map(ValueOrderingKey.encode))
      narrowed += 1
    }
    let directional = index.directionalSegments
    guard directional.allSatisfy({ present.contains($0.fieldPath) }) else { return nil }
    // Exact values of the leading segments, then at most one range; the segments after
    // that are read whole.
    var prefixes: [[UInt8]] = [[]]
    var range: Bounds?
    for segment in directional {
      let descending = segment.kind == .descending
      if let values = equalities[segment.fieldPath], prefixes.count * Swift.max(values.count, 1) <= Self.maximumRanges {
        prefixes = Self.unique(
          prefixes.flatMap { prefix in
            values.map { value in
              var key = prefix
              ValueOrderingKey.append(value, descending: descending, to: &key)
              return key
            }
          })
        narrowed += 1
        continue
      }
      if let bounds = bounds[segment.fieldPath] {
        // Inverted bytes reverse the order: the upper bound's keys come first.
        range = descending ? Bounds(lower: bounds.upper.map { ~$0 }, upper: bounds.lower.map { ~$0 }) : bounds
        narrowed += 1
      }
      break
    }
    guard arrayValues.count * prefixes.count <= Self.maximumRanges else { return nil }
    var ranges: [Scan.Range] = []
    for arrayValue in arrayValues {
      for prefix in prefixes {
        let lower = prefix + (range?.lower ?? [])
        let upper = ValueOrderingKey.successor(ofPrefix: prefix + (range?.upper ?? []))
        ranges.append(Scan.Range(arrayValue: arrayValue, lower: lower, upper: upper))
      }
    }
    return Scan(indexID: index.id, ranges: ranges, narrowedSegments: narrowed)
  }

  private static func unique(_ keys: [[UInt8]]) -> [[UInt8]] {
    var seen = Set<[UInt8]>()
    return keys.filter { seen.insert($0).inserted }
  }

  // MARK: - Creating an index

  /// The index the Apple SDK would create for the query in `collectionGroup`: a segment
  /// for each equality field, a contains segment for `array-contains(-any)`, then the
  /// query's ordering (inequality fields included) in its directions, each field once and
  /// never `__name__`. `nil` for what the Apple SDK creates none for (inequalities on
  /// several fields) and for what these indexes cannot serve (an `OR`).
  func indexToCreate(collectionGroup: String) -> FieldIndex? {
    guard !hasDisjunction, inequalityFields.count <= 1 else { return nil }
    var segments: [FieldIndex.Segment] = []
    var used = Set<String>()
    func isKey(_ field: String) -> Bool { field == CanonicalFieldPath.documentKey }
    if let field = arrayFields.first, !isKey(field) {
      segments.append(FieldIndex.Segment(names: QueryEvaluator.segments(field), kind: .contains))
    }
    for field in equalityFields where !isKey(field) && used.insert(field).inserted {
      segments.append(FieldIndex.Segment(names: QueryEvaluator.segments(field), kind: .ascending))
    }
    for ordering in order {
      let names = QueryEvaluator.segments(ordering.fieldPath)
      let field = CanonicalFieldPath.encode(names)
      guard !QueryEvaluator.isDocumentKey(names), used.insert(field).inserted else { continue }
      segments.append(FieldIndex.Segment(names: names, kind: ordering.descending ? .descending : .ascending))
    }
    guard !segments.isEmpty else { return nil }
    return FieldIndex(collectionGroup: collectionGroup, segments: segments)
  }
}
