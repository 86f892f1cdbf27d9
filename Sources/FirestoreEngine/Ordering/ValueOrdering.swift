import FirestoreWire

/// Firestore's total order over values, as the server uses it for `orderBy`, cursors and
/// range filters.
///
/// Type classes sort in this order: null, booleans, numbers, timestamps, strings, bytes,
/// references, geo points, arrays, vectors, maps. Within a class:
///
/// * booleans: `false < true`;
/// * numbers: integers and doubles compare by exact mathematical value (an `Int64` is
///   never rounded to a `Double`); `NaN` sorts before every other number and equals
///   itself; `-0.0`, `0.0` and `0` are equal;
/// * timestamps: chronologically;
/// * strings: by UTF-8 bytes (not Swift's `<`, which compares Unicode scalars and treats
///   canonically equivalent strings as equal);
/// * bytes: by unsigned bytes, a prefix first;
/// * references: segment by segment (so `a/b` < `a b/c` although `" " < "/"`); a segment
///   `__id<n>__` is a numeric ID, sorting before string IDs and numerically among them;
/// * geo points: latitude, then longitude;
/// * arrays: element by element, then the shorter first;
/// * vectors (maps whose `__type__` is `"__vector__"`): length first, then element by element;
/// * maps: entries sorted by key (UTF-8); then key by key and value by value, then the
///   smaller map first.
///
/// All of this was checked against the Firestore emulator (`orderBy` over one field holding
/// every kind of value). A client's pending server timestamp
/// (``FirestoreWire/Value/pendingServerTimestamp(localWriteTime:previous:)``), which no
/// server holds, sorts as the SDKs sort it: after every timestamp and before strings, by
/// local write time alone, so that it stays where the server's time will put it.
public enum ValueOrdering {
  /// Compares two values: negative when `a` sorts first, zero when Firestore considers them
  /// equal, positive when `b` sorts first.
  public static func compare(_ a: Value, _ b: Value) -> Int {
    let ta = rank(a)
    let tb = rank(b)
    if ta != tb { return ta < tb ? -1 : 1 }
    if ta == pendingServerTimestampRank, let x = a.pendingServerTimestamp, let y = b.pendingServerTimestamp {
      return x.localWriteTime == y.localWriteTime ? 0 : (x.localWriteTime < y.localWriteTime ? -1 : 1)
    }
    switch (a, b) {
    case (.null, .null):
      return 0
    case (.boolean(let x), .boolean(let y)):
      return x == y ? 0 : (x ? 1 : -1)
    case (.timestamp(let x), .timestamp(let y)):
      return x == y ? 0 : (x < y ? -1 : 1)
    case (.string(let x), .string(let y)):
      return compareUTF8(x, y)
    case (.bytes(let x), .bytes(let y)):
      return compareBytes(x, y)
    case (.reference(let x), .reference(let y)):
      return compareResourceNames(x, y)
    case (.geoPoint(let x), .geoPoint(let y)):
      let c = compareDoubles(x.latitude, y.latitude)
      return c != 0 ? c : compareDoubles(x.longitude, y.longitude)
    case (.array(let x), .array(let y)):
      return compareArrays(x, y)
    case (.map(let x), .map(let y)):
      if let vx = a.vectorElements, let vy = b.vectorElements {
        return vx.count != vy.count ? (vx.count < vy.count ? -1 : 1) : compareArrays(vx, vy)
      }
      return compareMaps(x, y)
    default:
      return compareNumbers(a, b)
    }
  }

  /// The rank of a value's type class: 0 null, 1 boolean, 2 number (integer or double),
  /// 3 timestamp, 4 string, 5 bytes, 6 reference, 7 geo point, 8 array, 9 vector, 10 map;
  /// 11 for a pending server timestamp, a class of its own that no operand has (its place
  /// in the order is ``compare(_:_:)``'s, between timestamps and strings).
  ///
  /// Range filters only match values of the same class as the operand.
  public static func typeOrder(_ v: Value) -> Int {
    if case .map = v, v.pendingServerTimestamp != nil { return pendingServerTimestampClass }
    switch v {
    case .null: return 0
    case .boolean: return 1
    case .integer, .double: return 2
    case .timestamp: return 3
    case .string: return 4
    case .bytes: return 5
    case .reference: return 6
    case .geoPoint: return 7
    case .array: return 8
    case .map: return v.isVector ? 9 : 10
    }
  }

  /// The place of a value's class in the order: twice ``typeOrder(_:)``, and a pending
  /// server timestamp between timestamps and strings.
  private static func rank(_ v: Value) -> Int {
    let order = typeOrder(v)
    return order == pendingServerTimestampClass ? pendingServerTimestampRank : 2 * order
  }

  private static let pendingServerTimestampClass = 11
  /// Between timestamps' rank (6) and strings' (8).
  private static let pendingServerTimestampRank = 7

  /// Whether two values are equal in Firestore's ordering: `compare(a, b) == 0`.
  ///
  /// So `1 == 1.0`, `-0.0 == 0`, `NaN == NaN`, and `[NaN] == [NaN]`; strings are equal
  /// only when their UTF-8 bytes are. This is the equality of cursors, of sorting, and of
  /// `arrayUnion`/`arrayRemove`. It is *not* the whole story for query filters: there a
  /// top-level `NaN` or `null` operand of `EQUAL`, `IN` or `ARRAY_CONTAINS` matches nothing
  /// (the client sends `IS_NAN`/`IS_NULL` instead), although `NaN` and `null` nested in an
  /// array or map operand do match equal nested values.
  public static func areEqual(_ a: Value, _ b: Value) -> Bool {
    compare(a, b) == 0
  }

  /// Compares strings by their UTF-8 bytes, as Firestore does (also for map keys and path
  /// segments).
  public static func compareUTF8(_ a: String, _ b: String) -> Int {
    compareBytes(a.utf8, b.utf8)
  }

  /// Compares two resource names (`projects/p/databases/d/documents/a/b`) segment by
  /// segment, as Firestore orders references and `__name__`.
  public static func compareResourceNames(_ a: String, _ b: String) -> Int {
    // On the names' contiguous UTF-8 (a native string's own storage): stepping through a
    // `String.UTF8View` costs several times the comparison itself, and sorting thousands
    // of documents by name does little else.
    var a = a
    var b = b
    return a.withUTF8 { x in b.withUTF8 { y in compareResourceNames(x, y) } }
  }

  private static func compareResourceNames(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
    let slash = UInt8(ascii: "/")
    // Segments before the first differing byte are equal: start at the segment holding
    // it. Names in one query share their parent, so usually only the IDs are compared.
    let shorter = min(a.count, b.count)
    var i = 0
    var segment = 0
    while i < shorter, a[i] == b[i] {
      if a[i] == slash { segment = i + 1 }
      i += 1
    }
    if i == a.count && i == b.count { return 0 }
    var restA = a[segment...]
    var restB = b[segment...]
    while true {
      let endA = restA.firstIndex(of: slash) ?? restA.endIndex
      let endB = restB.firstIndex(of: slash) ?? restB.endIndex
      let c = compareSegments(restA[..<endA], restB[..<endB])
      if c != 0 { return c }
      let lastA = endA == restA.endIndex
      let lastB = endB == restB.endIndex
      if lastA || lastB { return lastA == lastB ? 0 : (lastA ? -1 : 1) }
      restA = restA[(endA + 1)...]
      restB = restB[(endB + 1)...]
    }
  }

  /// Compares two path segments (document or collection IDs): numeric IDs (`__id42__`)
  /// first and by number, then the rest by UTF-8 bytes.
  public static func compareSegments(_ a: String, _ b: String) -> Int {
    compareSegments(a.utf8[...], b.utf8[...])
  }

  // MARK: - Numbers

  private static func compareNumbers(_ a: Value, _ b: Value) -> Int {
    switch (a, b) {
    case (.integer(let x), .integer(let y)): return x == y ? 0 : (x < y ? -1 : 1)
    case (.double(let x), .double(let y)): return compareDoubles(x, y)
    case (.integer(let x), .double(let y)): return compareExact(x, y)
    case (.double(let x), .integer(let y)): return -compareExact(y, x)
    default: return 0  // Unreachable: callers pass two numbers.
    }
  }

  /// Doubles in Firestore order: `NaN` first and equal to itself, `-0.0 == 0.0`.
  private static func compareDoubles(_ x: Double, _ y: Double) -> Int {
    if x.isNaN || y.isNaN { return x.isNaN ? (y.isNaN ? 0 : -1) : 1 }
    return x == y ? 0 : (x < y ? -1 : 1)
  }

  /// An integer against a double by exact value; converting the integer to `Double` would
  /// round 2^53 + 1 down to 2^53.
  private static func compareExact(_ i: Int64, _ d: Double) -> Int {
    if d.isNaN { return 1 }
    // 2^63 is the first double above Int64.max; -2^63 is exactly Int64.min.
    if d >= 9_223_372_036_854_775_808.0 { return -1 }
    if d < -9_223_372_036_854_775_808.0 { return 1 }
    let whole = d.rounded(.towardZero)
    let w = Int64(whole)
    if i != w { return i < w ? -1 : 1 }
    let fraction = d - whole
    return fraction == 0 ? 0 : (fraction > 0 ? -1 : 1)
  }

  // MARK: - Composite values

  private static func compareBytes(_ x: some Collection<UInt8>, _ y: some Collection<UInt8>) -> Int {
    var ix = x.makeIterator()
    var iy = y.makeIterator()
    while true {
      switch (ix.next(), iy.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let p?, let q?): if p != q { return p < q ? -1 : 1 }
      }
    }
  }

  private static func compareArrays(_ x: [Value], _ y: [Value]) -> Int {
    for (p, q) in zip(x, y) {
      let c = compare(p, q)
      if c != 0 { return c }
    }
    return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
  }

  private static func compareMaps(_ x: [String: Value], _ y: [String: Value]) -> Int {
    let kx = x.keys.sorted { compareUTF8($0, $1) < 0 }
    let ky = y.keys.sorted { compareUTF8($0, $1) < 0 }
    for (p, q) in zip(kx, ky) {
      let c = compareUTF8(p, q)
      if c != 0 { return c }
      let v = compare(x[p]!, y[q]!)
      if v != 0 { return v }
    }
    return kx.count == ky.count ? 0 : (kx.count < ky.count ? -1 : 1)
  }

  // MARK: - Path segments

  private static func compareSegments<Bytes: Collection<UInt8>>(_ a: Bytes, _ b: Bytes) -> Int {
    switch (numericID(a), numericID(b)) {
    case (let x?, let y?): return x == y ? 0 : (x < y ? -1 : 1)
    case (_?, nil): return -1
    case (nil, _?): return 1
    case (nil, nil): return compareBytes(a, b)
    }
  }

  /// The number of a numeric document ID `__id<n>__` (as the emulator orders them: `__id-5__`
  /// < `__id5__` < `__id10__` < `A`), or `nil` for an ordinary ID. ``ValueOrderingKey``
  /// encodes segments by it too, and it is the one ID of the reserved form `__…__` that
  /// Firestore takes.
  package static func numericID(_ s: some Collection<UInt8>) -> Int64? {
    guard s.starts(with: "__id".utf8) else { return nil }
    let bytes = Array(s)
    let underscore = UInt8(ascii: "_")
    guard bytes.count > 6, bytes[bytes.count - 1] == underscore, bytes[bytes.count - 2] == underscore else { return nil }
    let digits = bytes[4..<(bytes.count - 2)]
    guard digits.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: "-") }) else { return nil }
    return Int64(String(decoding: digits, as: UTF8.self))
  }
}
