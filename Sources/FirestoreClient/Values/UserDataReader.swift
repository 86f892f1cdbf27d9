import FirestoreWire
import Foundation

/// Turns Swift values from `setData`/`updateData`/queries into Firestore values, pulling
/// `FieldValue` sentinels out into transforms and deletes.
///
/// Accepted: `nil`/`NSNull`, `Bool`, `NSNumber` (a boolean, a double for a floating-point
/// number, else an integer; what ``DocumentSnapshot/data()`` returns, so data read can be
/// written back as it is), signed and unsigned integers that fit in Int64,
/// `Double`, `Float`, `String`, `Data`, `Date`, ``Timestamp``, ``GeoPoint``,
/// ``DocumentReference`` (of the same database), ``VectorValue`` (not inside arrays),
/// arrays and `[String: …]` dictionaries of these, and ``FieldValue`` where the context
/// allows. Anything else is an `invalidArgument` error naming the field.
struct UserDataReader {
  /// Firestore's limit on nesting of maps and arrays (the emulator accepts 20 levels and
  /// rejects 21 with "contains an invalid nested entity").
  static let maximumDepth = 20

  /// What the caller is building; decides which sentinels are allowed.
  enum Context {
    case set
    case mergeSet
    case update
    /// A query filter or cursor value: no sentinels at all.
    case argument(String)
  }

  let firestore: Firestore
  let context: Context

  /// Transforms found so far, with full field paths.
  var transforms: [(FieldPath, FieldTransform.Kind)] = []
  /// Paths that hold `FieldValue.delete()`.
  var deletes: [FieldPath] = []
  /// Leaf paths of ordinary values, kept when merging (the mask of a merging set).
  var leafPaths: [FieldPath] = []
  /// The field names and array positions down to the value being read, pushed and popped
  /// on the way down: a ``FieldPath`` is made only where one is kept or named.
  private var segments: [Segment] = []
  /// The path of the value being read, an array's element named `[i]`.
  private var path: FieldPath { FieldPath(segments.map(\.name)) }

  /// One step of ``segments``: an element's position stays a number until a path is
  /// named, as most elements never are.
  private enum Segment {
    case field(String)
    case element(Int)

    var name: String {
      switch self {
      case .field(let name): name
      case .element(let i): "[\(i)]"
      }
    }
  }

  /// Whether timestamps are cut to the microsecond (see ``timestamp(_:_:)``); a pipeline's
  /// constants are sent as given, as the Python client sends them (no cache to agree with).
  let cutsTimestamps: Bool

  init(firestore: Firestore, context: Context, cutsTimestamps: Bool = true) {
    self.firestore = firestore
    self.context = context
    self.cutsTimestamps = cutsTimestamps
  }

  /// Reads a document's top-level data. Sentinels are removed from the result.
  mutating func readFields(_ data: [String: any Sendable]) throws(FirestoreError) -> [String: Value] {
    segments = []
    var fields = [String: Value](reservingCapacity: data.count)
    for (key, raw) in data {
      segments.append(.field(key))
      try Self.validateFieldName(key, path: path)
      if let value = try readHere(raw, depth: 1, arrays: .none) { fields[key] = value }
      segments.removeLast()
    }
    return fields
  }

  /// Reads one value at `path`; returns `nil` when the value was a sentinel, or a map
  /// holding nothing but sentinels.
  ///
  /// Such a map contributes no field and no leaf path of its own (its sentinels carry
  /// the transforms and deletes), as in the official clients: written as an empty map it
  /// would replace what a merge means to keep. A map the caller wrote empty stays `{}`.
  mutating func read(_ raw: any Sendable, path: FieldPath, depth: Int, arrays: ArrayPlacement) throws(FirestoreError) -> Value? {
    segments = path.segments.map(Segment.field)
    return try readHere(raw, depth: depth, arrays: arrays)
  }

  /// ``read(_:path:depth:arrays:)`` at the path of ``segments``.
  private mutating func readHere(_ raw: any Sendable, depth: Int, arrays: ArrayPlacement) throws(FirestoreError) -> Value? {
    // Firestore counts maps and arrays, not the scalars inside them: a top-level map
    // is level 1, and 20 levels of maps with a number at the bottom are accepted.
    if depth > Self.maximumDepth, Self.isContainer(raw) {
      throw .invalidArgument("field \(describe(path)) is nested more than \(Self.maximumDepth) levels of maps and arrays deep")
    }
    // A cast that fails costs a lookup in the runtime: the types read by their exact type
    // are never a sentinel, which may also come wrapped in an optional, and neither is an
    // `NSNumber` (from a class to a struct is the slowest cast that fails).
    let dynamicType = type(of: raw)
    if !Self.isReadByExactType(dynamicType), !(dynamicType is NSNumber.Type), let sentinel = raw as? FieldValue {
      try readSentinel(sentinel, path: path, arrays: arrays)
      return nil
    }
    guard let value = try readPlain(raw, depth: depth, arrays: arrays) else { return nil }
    guard case .mergeSet = context, arrays == .none else { return value }
    // A non-empty map is masked by its own leaves.
    if case .map(let m) = value, !m.isEmpty { return value }
    leafPaths.append(path)
    return value
  }

  /// Whether ``readPlain(_:depth:arrays:)`` reads a value of `type` by its exact type,
  /// before any cast.
  private static func isReadByExactType(_ type: any Any.Type) -> Bool {
    type == String.self || type == Int.self || type == Double.self || type == Date.self || type == Timestamp.self
      || type == [String].self || type == [any Sendable].self || type == [String: any Sendable].self
  }

  /// Whether `raw` is a map or an array, in Swift or in wire form (what nesting counts).
  private static func isContainer(_ raw: any Sendable) -> Bool {
    switch raw {
    case is [any Sendable], is [String: any Sendable]: return true
    case let value as Value:
      switch value {
      case .array, .map: return true
      default: return false
      }
    default: return false
    }
  }

  /// Reads a value that is not itself a sentinel; `nil` for a non-empty map whose entries
  /// all turned out to be sentinels.
  private mutating func readPlain(_ raw: any Sendable, depth: Int, arrays: ArrayPlacement) throws(FirestoreError) -> Value? {
    // The commonest types first, by their exact type: a cast that fails costs a lookup in
    // the runtime (a protocol's conformances, a bridge to a Foundation class), and the
    // casts below try many. (An `NSNumber` is none of these types.)
    let dynamicType = type(of: raw)
    if dynamicType == String.self, let s = raw as? String { return .string(s) }
    if dynamicType == Int.self, let i = raw as? Int { return .integer(Int64(i)) }
    if dynamicType == Double.self, let d = raw as? Double { return .double(d) }
    if dynamicType == Date.self, let d = raw as? Date { return try timestamp(Timestamp(date: d), path) }
    // What `data()` hands out for a timestamp, as it would be written back.
    if dynamicType == Timestamp.self, let t = raw as? Timestamp { return try timestamp(t, path) }
    if dynamicType == [String].self, let strings = raw as? [String] {
      if arrays == .element { throw arrayInArray() }
      return .array(strings.map(Value.string))
    }
    if dynamicType == [any Sendable].self, let a = raw as? [any Sendable] { return try readArray(a, depth: depth, arrays: arrays) }
    if dynamicType == [String: any Sendable].self, let m = raw as? [String: any Sendable] {
      return try readMap(m, depth: depth, arrays: arrays)
    }
    // Before the other Swift types: Foundation would bridge an NSNumber 1 to `true`, and
    // 2.0 to `2`.
    if let number = NumberBridge.number(raw) {
      guard let value = NumberBridge.value(of: number) else { throw outOfRange(number.uint64Value, path) }
      return value
    }
    // A bridged `NSString`, or a string in an optional.
    if let s = raw as? String { return .string(s) }
    // `NSNull` by its class, and arrays and maps before the types Foundation bridges
    // (`Bool`, `Data`, `Date`): a cast of an array or a dictionary to one of those
    // first turns the whole container into a Foundation object to find out.
    if type(of: raw) is NSNull.Type { return .null }
    switch raw {
    case let a as [any Sendable]: return try readArray(a, depth: depth, arrays: arrays)
    case let m as [String: any Sendable]: return try readMap(m, depth: depth, arrays: arrays)
    case let v as Value: return try readWire(v, depth: depth, arrays: arrays)
    case let o as any OptionalValue:
      // The optional arrived as `any Sendable`, so what it wraps is Sendable too.
      guard let wrapped = o.wrappedValue else { return .null }
      return try readPlain(UserData.sendable(wrapped), depth: depth, arrays: arrays)
    case let b as Bool: return .boolean(b)
    case let s as Substring: return .string(String(s))
    case let i as Int64: return .integer(i)
    case let i as Int32: return .integer(Int64(i))
    case let i as Int16: return .integer(Int64(i))
    case let i as Int8: return .integer(Int64(i))
    case let i as UInt8: return .integer(Int64(i))
    case let i as UInt16: return .integer(Int64(i))
    case let i as UInt32: return .integer(Int64(i))
    case let i as UInt:
      guard let v = Int64(exactly: i) else { throw outOfRange(i, path) }
      return .integer(v)
    case let i as UInt64:
      guard let v = Int64(exactly: i) else { throw outOfRange(i, path) }
      return .integer(v)
    case let f as Float: return .double(Double(f))
    case let d as Data: return .bytes(d)
    case let d as Date: return try timestamp(Timestamp(date: d), path)
    case let v as VectorValue:
      // Firestore refuses a vector anywhere under an array ("Cannot convert a vector value in
      // an array value").
      if arrays != .none {
        throw .invalidArgument("field \(describe(path)) holds a vector inside an array, which Firestore does not support")
      }
      return try v.wireValue("field \(describe(path))")
    case let g as GeoPoint:
      guard g.isValid else {
        throw .invalidArgument(
          "field \(describe(path)) has geo point (\(g.latitude), \(g.longitude)) outside latitude -90...90 / longitude -180...180")
      }
      return .geoPoint(g)
    case let r as DocumentReference:
      let ref = try r.validated()
      guard ref.firestore.databaseName == firestore.databaseName else {
        throw .invalidArgument(
          "field \(describe(path)) references \(ref.path) in \(ref.firestore.databaseName), not in this database \(firestore.databaseName)")
      }
      return .reference(ref.name)
    default:
      throw .invalidArgument("field \(describe(path)) has unsupported type \(type(of: raw))")
    }
  }

  /// An array's elements, each at its position.
  private mutating func readArray(_ a: [any Sendable], depth: Int, arrays: ArrayPlacement) throws(FirestoreError) -> Value {
    if arrays == .element { throw arrayInArray() }
    var values: [Value] = []
    values.reserveCapacity(a.count)
    for (i, element) in a.enumerated() {
      segments.append(.element(i))
      if let v = try readHere(element, depth: depth + 1, arrays: .element) { values.append(v) }
      segments.removeLast()
    }
    return .array(values)
  }

  /// A map's entries; `nil` for a non-empty map whose entries were all sentinels.
  private mutating func readMap(_ m: [String: any Sendable], depth: Int, arrays: ArrayPlacement) throws(FirestoreError) -> Value? {
    var fields = [String: Value](reservingCapacity: m.count)
    for (key, element) in m {
      segments.append(.field(key))
      try Self.validateFieldName(key, path: path)
      // An array in a map is allowed anywhere; a sentinel or a vector under an array is not.
      if let v = try readHere(element, depth: depth + 1, arrays: arrays == .none ? .none : .nested) { fields[key] = v }
      segments.removeLast()
    }
    if fields.isEmpty && !m.isEmpty { return nil }
    return .map(fields)
  }

  /// A value given already in wire form (REST JSON, extended JSON, a `Value`) passes the
  /// same checks as the Swift value it stands for.
  private mutating func readWire(_ value: Value, depth: Int, arrays: ArrayPlacement) throws(FirestoreError) -> Value? {
    switch value {
    case .array(let elements):
      return try readPlain(elements.map { $0 as any Sendable }, depth: depth, arrays: arrays)
    case .map where value.isVector:
      // A tagged vector map is checked by the server, which names the problem itself.
      return value
    case .map(let fields):
      return try readPlain(fields.mapValues { $0 as any Sendable }, depth: depth, arrays: arrays)
    case .geoPoint(let g): return try readPlain(g, depth: depth, arrays: arrays)
    case .timestamp(let t): return try timestamp(t, path)
    case .reference(let name):
      let prefix = firestore.documentsRoot + "/"
      if name.hasPrefix(prefix) {
        return try readPlain(firestore.document(String(name.dropFirst(prefix.count))), depth: depth, arrays: arrays)
      }
      // A wire reference may name a document of another database (an export imported
      // elsewhere keeps its references), as the server accepts; it must still name one.
      let parts = name.split(separator: "/", maxSplits: 5, omittingEmptySubsequences: false)
      let document =
        parts.count == 6 && parts[0] == "projects" && parts[2] == "databases" && parts[4] == "documents"
        ? try? ResourcePath.parse(String(parts[5]), what: "document path") : nil
      guard parts.count == 6, !parts[1].isEmpty, !parts[3].isEmpty, let document, document.segments.count % 2 == 0 else {
        throw .invalidArgument(
          "field \(describe(path)) references \"\(name)\", which is not a document name (projects/P/databases/D/documents/PATH)")
      }
      return value
    default: return value
    }
  }

  private mutating func readSentinel(_ sentinel: FieldValue, path: FieldPath, arrays: ArrayPlacement) throws(FirestoreError) {
    if arrays != .none {
      throw .invalidArgument("\(sentinel.methodName) is not supported inside arrays (field \(describe(path)))")
    }
    if case .argument(let what) = context {
      throw .invalidArgument("\(sentinel.methodName) can only be used in setData and updateData, not in \(what)")
    }
    switch sentinel.kind {
    case .delete:
      switch context {
      case .set:
        throw .invalidArgument("FieldValue.delete() at \(describe(path)) can only be used with updateData or setData(_:merge: true)")
      case .update where path.segments.count > 1 && !isTopLevelUpdateKey(path):
        throw .invalidArgument("FieldValue.delete() at \(describe(path)) can only appear at the top level of the update data")
      default:
        deletes.append(path)
      }
    case .serverTimestamp: transforms.append((path, .serverTimestamp))
    case .increment(let v): transforms.append((path, .increment(v)))
    case .maximum(let v): transforms.append((path, .maximum(v)))
    case .minimum(let v): transforms.append((path, .minimum(v)))
    case .arrayUnion(let elements): transforms.append((path, .appendMissingElements(try readArrayArgument(elements, path: path, sentinel))))
    case .arrayRemove(let elements): transforms.append((path, .removeAllFromArray(try readArrayArgument(elements, path: path, sentinel))))
    }
  }

  /// Set by `updateData` to the key being read, so nested deletes can be told apart.
  var currentUpdateKey: FieldPath?

  private func isTopLevelUpdateKey(_ path: FieldPath) -> Bool { currentUpdateKey == path }

  private func readArrayArgument(_ elements: [any Sendable], path: FieldPath, _ sentinel: FieldValue) throws(FirestoreError) -> [Value] {
    var nested = UserDataReader(firestore: firestore, context: .argument(sentinel.methodName))
    var values: [Value] = []
    for (i, element) in elements.enumerated() {
      let elementPath = FieldPath(path.segments + ["[\(i)]"])
      if element is FieldValue {
        throw .invalidArgument("\(sentinel.methodName) at \(describe(path)) cannot contain another FieldValue")
      }
      if let v = try nested.read(element, path: elementPath, depth: 1, arrays: .element) { values.append(v) }
    }
    return values
  }

  /// A timestamp cut to the microsecond, as Firestore stores it: the Apple SDK cuts it as it
  /// reads the caller's data, so that what the cache and pending writes hold, and what a
  /// query compares, is what the server will have.
  private func timestamp(_ t: Timestamp, _ path: @autoclosure () -> FieldPath) throws(FirestoreError) -> Value {
    guard t.isInFirestoreRange else {
      throw .invalidArgument("field \(describe(path())) has timestamp \(t.seconds)s outside Firestore's range (years 1 to 9999)")
    }
    return .timestamp(cutsTimestamps ? Timestamp(seconds: t.seconds, nanoseconds: t.nanoseconds / 1_000 * 1_000) : t)
  }

  private func arrayInArray() -> FirestoreError {
    .invalidArgument("field \(describe(path)) holds an array inside an array, which Firestore does not support")
  }

  private func outOfRange(_ value: some BinaryInteger, _ path: FieldPath) -> FirestoreError {
    .invalidArgument("field \(describe(path)) has integer \(value), which does not fit in a 64-bit signed integer")
  }

  private func describe(_ path: FieldPath) -> String {
    if case .argument(let what) = context, path.segments.isEmpty { return "in \(what)" }
    return "\"\(path.description)\""
  }

  /// Rejects map keys Firestore refuses: empty, or reserved `__…__` names.
  static func validateFieldName(_ key: String, path: @autoclosure () -> FieldPath) throws(FirestoreError) {
    if key.isEmpty { throw .invalidArgument("field names must not be empty (at \"\(path().description)\")") }
    if FieldPath.isReserved(key) {
      throw .invalidArgument("field name \"\(key)\" is reserved (names matching __.*__ are not allowed)")
    }
  }

  /// Reads a single query argument (filter or cursor value).
  static func argument(
    _ raw: any Sendable, firestore: Firestore, what: String, cutsTimestamps: Bool = true
  ) throws(FirestoreError) -> Value {
    var reader = UserDataReader(firestore: firestore, context: .argument(what), cutsTimestamps: cutsTimestamps)
    guard let value = try reader.read(raw, path: FieldPath([]), depth: 1, arrays: .none) else {
      throw .invalidArgument("a FieldValue cannot be used in \(what)")
    }
    return value
  }
}

/// Where a value stands with respect to arrays, for the rules Firestore keeps on them: an
/// array may not be an array's element (a map in between makes it allowed), and a sentinel
/// or a vector may not stand anywhere under an array.
enum ArrayPlacement {
  /// Under no array.
  case none
  /// An array's element.
  case element
  /// Inside a map that is under an array.
  case nested
}
