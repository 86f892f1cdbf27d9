import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Conformance: values")
struct ValueConformanceTests {
  @Test("every Firestore type round-trips exactly through the emulator", arguments: Backend.all)
  func everyTypeRoundTrips(_ backend: Backend) async throws {
    let ref = backend.collection().document("all")
    let other = backend.db.document("cities/c1")
    let stamp = try Timestamp(rfc3339: "2024-01-02T03:04:05.123456Z")
    let data: [String: any Sendable] = [
      "null": NSNull(),
      "true": true,
      "false": false,
      "maxInt": Int64.max,
      "minInt": Int64.min,
      "beyondDouble": Int64(9_007_199_254_740_993),
      "double": 1.5,
      "wholeDouble": 2.0,
      "huge": 1e300,
      "nan": Double.nan,
      "inf": Double.infinity,
      "negInf": -Double.infinity,
      "timestamp": stamp,
      "date": Date(timeIntervalSince1970: 1_700_000_000.25),
      "string": "héllo wörld 😀 \u{0} \"quoted\" \\ /",
      "empty": "",
      "bytes": Data([0, 1, 2, 255, 254]),
      "reference": other,
      "geo": GeoPoint(latitude: 48.85, longitude: 2.35),
      "origin": GeoPoint(latitude: 0, longitude: 0),
      "array": [1, "two", 3.0, NSNull(), ["k": "v"]] as [any Sendable],
      // An array is no array's element, but a map in between makes it one Firestore keeps.
      "arrayInMapInArray": [["a": [42]] as [String: any Sendable], "x"] as [any Sendable],
      "emptyArray": [any Sendable](),
      "map": ["a.b": 1, "nested": ["deep": true]] as [String: any Sendable],
      "emptyMap": [String: any Sendable](),
    ]
    try await ref.setData(data)
    let snapshot = try await ref.getDocument()
    let fields = try #require(snapshot.fields)
    #expect(fields["null"] == .null)
    #expect(fields["true"] == .boolean(true))
    #expect(fields["maxInt"] == .integer(.max))
    #expect(fields["minInt"] == .integer(.min))
    #expect(fields["beyondDouble"] == .integer(9_007_199_254_740_993))
    #expect(fields["double"] == .double(1.5))
    #expect(fields["wholeDouble"] == .double(2.0))
    #expect(fields["huge"] == .double(1e300))
    #expect(fields["nan"] == .double(.nan))
    #expect(fields["inf"] == .double(.infinity))
    #expect(fields["negInf"] == .double(-.infinity))
    #expect(fields["timestamp"] == .timestamp(stamp))
    #expect(fields["date"] == .timestamp(Timestamp(seconds: 1_700_000_000, nanoseconds: 250_000_000)))
    #expect(fields["string"] == .string("héllo wörld 😀 \u{0} \"quoted\" \\ /"))
    #expect(fields["empty"] == .string(""))
    #expect(fields["bytes"] == .bytes(Data([0, 1, 2, 255, 254])))
    #expect(fields["reference"] == .reference(other.name))
    #expect(fields["geo"] == .geoPoint(GeoPoint(latitude: 48.85, longitude: 2.35)))
    #expect(fields["origin"] == .geoPoint(GeoPoint(latitude: 0, longitude: 0)))
    #expect(fields["array"] == .array([.integer(1), .string("two"), .double(3.0), .null, .map(["k": .string("v")])]))
    #expect(fields["arrayInMapInArray"] == .array([.map(["a": .array([.integer(42)])]), .string("x")]))
    #expect(fields["emptyArray"] == .array([]))
    #expect(fields["map"] == .map(["a.b": .integer(1), "nested": .map(["deep": .boolean(true)])]))
    #expect(fields["emptyMap"] == .map([:]))

    // The Swift view of the same document.
    let swift = try #require(snapshot.data())
    #expect(swift["maxInt"] as? Int == Int.max)
    #expect(swift["null"] is NSNull)
    #expect(swift["timestamp"] as? Timestamp == stamp)
    #expect((swift["reference"] as? DocumentReference) == other)
    #expect(snapshot.get("map.nested.deep") as? Bool == true)
    #expect(snapshot.get(FieldPath(["map", "a.b"])) as? Int == 1)
  }

  /// Firestore keeps microseconds; the Apple SDK cuts a timestamp to them as it reads the
  /// caller's data, so that a write shown before the server has it, the cache, and a query
  /// given the same nanoseconds all agree with what the server stores.
  @Test("a timestamp is cut to the microsecond as it is read: writes, the cache and queries agree", arguments: Backend.all)
  func timestampsCutToMicroseconds(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    let nanos = Timestamp(seconds: 0, nanoseconds: 123_456_789)
    let micros = Timestamp(seconds: 0, nanoseconds: 123_456_000)
    try await db.disableNetwork()
    // Queued from synchronous code, not awaited: shown at once.
    func write() { items.document("a").setData(["t": nanos]) }
    write()
    #expect(try await items.document("a").getDocument(source: .cache).get("t") as? Timestamp == micros, "a pending write")
    try await db.enableNetwork()
    try await db.waitForPendingWrites()
    for source in [FirestoreSource.server, .cache] {
      #expect(try await items.document("a").getDocument(source: source).get("t") as? Timestamp == micros, "\(source)")
      let queries = [
        items.whereField("t", isEqualTo: nanos), items.whereField("t", in: [nanos]), items.order(by: "t").start(at: [nanos]),
      ]
      for query in queries {
        #expect(try await query.getDocuments(source: source).documents.map(\.documentID) == ["a"], "\(source)")
      }
    }
  }

  @Test("timestamps keep microseconds and accept any offset", arguments: Backend.all)
  func timestampPrecision(_ backend: Backend) async throws {
    let ref = backend.collection().document("t")
    let withOffset = try Timestamp(rfc3339: "2024-01-02T04:04:05.5+01:00")
    try await ref.setData(["t": withOffset, "micro": Timestamp(seconds: 1, nanoseconds: 123_456_000)])
    let fields = try #require(try await ref.getDocument().fields)
    #expect(fields["t"] == .timestamp(try Timestamp(rfc3339: "2024-01-02T03:04:05.500Z")))
    #expect(fields["micro"] == .timestamp(Timestamp(seconds: 1, nanoseconds: 123_456_000)))
  }

  @Test("maps nest to Firestore's 20 levels; deeper is rejected before sending", arguments: Backend.all)
  func nestingLimit(_ backend: Backend) async throws {
    // `levels` maps counting the document's own: the emulator accepts 20 maps below the
    // document (21 here) and refuses 21 ("contains an invalid nested entity").
    func nested(_ levels: Int) -> [String: any Sendable] {
      var value: [String: any Sendable] = ["leaf": 1]
      for _ in 1..<levels { value = ["m": value] }
      return value
    }
    let ref = backend.collection().document("deep")
    try await ref.setData(nested(21))
    #expect(try await ref.getDocument().exists)
    let error = try await #require(throws: FirestoreError.self) { try await ref.setData(nested(22)) }
    #expect(error.code == .invalidArgument)
    #expect(error.message.contains("20 levels"))
  }

  @Test("out-of-range geo points and unsupported types are rejected naming the field", arguments: Backend.all)
  func invalidValues(_ backend: Backend) async throws {
    let ref = backend.collection().document("bad")
    let geo = try await #require(throws: FirestoreError.self) { try await ref.setData(["where": GeoPoint(latitude: 91, longitude: 0)]) }
    #expect(geo.code == .invalidArgument && geo.message.contains("\"where\""))
    struct Opaque: Sendable {}
    let opaque = try await #require(throws: FirestoreError.self) { try await ref.setData(["m": ["x": Opaque()] as [String: any Sendable]]) }
    #expect(opaque.message.contains("\"m.x\"") && opaque.message.contains("Opaque"))
    #expect(try await ref.getDocument().exists == false)
  }
}
