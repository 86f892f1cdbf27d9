import FirestoreEngine
import FirestoreWire

/// A field index of the persistent cache: for the documents of one collection group, the
/// values of some of their fields as ``FirestoreEngine/ValueOrderingKey`` keys, so that a
/// query on the cache reads only the documents whose keys fall in the ranges its filters
/// allow (``QueryIndexMatcher`` says which).
///
/// As in the Apple SDK, a segment is a field in ascending or descending order or, at most
/// once per index, a field whose array elements are indexed for `array-contains`. A
/// document has entries only when it has every ordered field (and a non-empty array for
/// the contains segment): one entry, or one per distinct array element.
struct FieldIndex: Sendable, Equatable {
  /// How a segment indexes its field.
  enum Kind: String, Sendable {
    case ascending = "ASCENDING"
    case descending = "DESCENDING"
    /// The elements of an array, each on its own, for `array-contains(-any)`.
    case contains = "CONTAINS"
  }

  /// One indexed field.
  struct Segment: Sendable, Equatable {
    /// The field's names (never `__name__`, whose order every query has anyway).
    let names: [String]
    let kind: Kind

    /// The canonical field path, the form the stored definition and the queries use.
    var fieldPath: String { CanonicalFieldPath.encode(names) }
  }

  /// One entry of a document: the key of its array element (empty without a contains
  /// segment) and the keys of its ordered fields, one after the other.
  struct Entry: Hashable, Sendable {
    let arrayValue: [UInt8]
    let key: [UInt8]
  }

  /// The index's row ID in the file; 0 before it is stored.
  var id: Int64
  let collectionGroup: String
  let segments: [Segment]

  /// Firestore indexes a field value of at most 1500 bytes; a document with a longer key
  /// is left out of the entries and read with every indexed query instead.
  static let maximumKeyBytes = 1500
  /// The most entries one document may have (the elements of a long array); beyond it the
  /// document is read with every indexed query instead.
  static let maximumEntries = 1000
  /// The most segments a definition read from the file may have.
  static let maximumSegments = 100

  init(id: Int64 = 0, collectionGroup: String, segments: [Segment]) {
    self.id = id
    self.collectionGroup = collectionGroup
    self.segments = segments
  }

  /// The segment of array elements, if any.
  var arraySegment: Segment? { segments.first { $0.kind == .contains } }

  /// The ordered segments, in order.
  var directionalSegments: [Segment] { segments.filter { $0.kind != .contains } }

  /// Whether `other` indexes the same fields the same way in the same group.
  func hasSameDefinition(as other: FieldIndex) -> Bool {
    collectionGroup == other.collectionGroup && segments == other.segments
  }

  // MARK: - Entries

  /// The entries of a document with `fields`: none when it lacks an indexed field, `nil`
  /// when they would exceed ``maximumKeyBytes`` or ``maximumEntries``.
  func entries(of fields: [String: Value]) -> Set<Entry>? {
    var key: [UInt8] = []
    for segment in segments where segment.kind != .contains {
      guard let value = FieldMap.get(fields, segment.names) else { return [] }
      ValueOrderingKey.append(value, descending: segment.kind == .descending, to: &key)
      if key.count > Self.maximumKeyBytes { return nil }
    }
    guard let arraySegment else { return [Entry(arrayValue: [], key: key)] }
    guard case .array(let elements)? = FieldMap.get(fields, arraySegment.names) else { return [] }
    var entries = Set<Entry>()
    for element in elements {
      let elementKey = ValueOrderingKey.encode(element)
      if elementKey.count + key.count > Self.maximumKeyBytes { return nil }
      entries.insert(Entry(arrayValue: elementKey, key: key))
      if entries.count > Self.maximumEntries { return nil }
    }
    return entries
  }

  // MARK: - Stored form

  /// The segments as the file keeps them: `[{"fieldPath": …, "kind": …}, …]`.
  var segmentsJSON: String {
    JSONWriter.string(
      .array(segments.map { .object([("fieldPath", .string($0.fieldPath)), ("kind", .string($0.kind.rawValue))]) }))
  }

  /// A definition read from the file; `nil` when it is not one this client wrote (bad JSON,
  /// an unknown kind, a path that does not parse, two contains segments, a repeated field).
  init?(id: Int64, collectionGroup: String, segmentsJSON: String) {
    guard !collectionGroup.isEmpty, let json = try? JSONParser.parse(segmentsJSON), let list = json.arrayValue,
      !list.isEmpty, list.count <= Self.maximumSegments
    else { return nil }
    var segments: [Segment] = []
    for item in list {
      guard let path = item["fieldPath"]?.stringValue, let kindName = item["kind"]?.stringValue,
        let kind = Kind(rawValue: kindName), let names = try? CanonicalFieldPath.decode(path), !names.isEmpty,
        !QueryEvaluator.isDocumentKey(names)
      else { return nil }
      segments.append(Segment(names: names, kind: kind))
    }
    guard segments.filter({ $0.kind == .contains }).count <= 1 else { return nil }
    let directional = segments.filter { $0.kind != .contains }.map(\.names)
    guard Set(directional).count == directional.count else { return nil }
    self.init(id: id, collectionGroup: collectionGroup, segments: segments)
  }
}
