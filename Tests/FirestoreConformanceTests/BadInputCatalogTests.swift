import FirestoreMock
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The bad-input catalog: invalid inputs across the public API, each of which must fail
/// with a ``FirestoreError`` of the expected code whose message names the input, without
/// sending anything to the server.
///
/// Every row runs against a mock server of its own, whose request log must stay empty for
/// the bad call (a row that needs an earlier good call clears the log itself; transaction
/// rows may begin and roll back the transaction around the bad call, nothing else).
///
/// Where the client's rule goes beyond the emulator's, the row says so. Inputs the issue
/// lists that Firestore accepts are not in the catalog (`BadInputBoundaryTests` checks
/// several of them on both backends): NaN and infinities as values and transform operands, `< NaN`
/// and `< null` filters (the emulator matches nothing; the client still refuses them as the
/// Firebase SDKs do), `limit(to: 0)` (the emulator returns nothing; the client refuses it as
/// the SDKs do), commits of more than 500 writes, and ordering by a field other than the
/// inequality field. (Cursors outside the queried collection, which the server also takes,
/// are refused by the client as the server SDKs do: `MergeSentinelTests` checks that on both
/// backends, beside the other write validations.) Strings with unpaired
/// UTF-16 surrogates cannot be made in Swift: every `String` initializer replaces them
/// with U+FFFD.
@Suite("Bad-input catalog", .requires(.mock))
struct BadInputCatalogTests {
  @Test("rejected before sending, with a message naming the input", arguments: BadInputCatalog.all)
  func rejected(_ row: BadInput) async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.retryPolicy.sleep = { _ in }
    settings.timeout = hangLimit
    let db = Firestore(projectID: "catalog", settings: settings)

    let error = await #expect(throws: FirestoreError.self, "\(row.input) was accepted") {
      try await row.call(db, server)
    }
    #expect(error?.code == row.code, "\(row.input): \(String(describing: error))")
    #expect(error?.message.contains(row.mentions) == true, "\(row.input): message \"\(error?.message ?? "")\" lacks \"\(row.mentions)\"")
    let sent = server.requestLog.entries.filter { entry in !row.allowed.contains { entry.path.hasSuffix($0) } }
    #expect(sent.isEmpty, "\(row.input) sent \(sent.map { "\($0.method) \($0.path)" })")
    // A failed transaction's rollback goes out after the call has returned: the server must
    // have it before it stops, or the rollback retries a port another test's server may get.
    if server.requestLog.count(matching: ":beginTransaction") > 0 {
      try await eventually("the rollback of \(row.input)") { server.requestLog.count(matching: ":rollback") > 0 }
    }
  }

  @Test("the catalog covers at least 40 inputs, each named once")
  func size() {
    #expect(BadInputCatalog.all.count >= 40)
    #expect(Set(BadInputCatalog.all.map(\.input)).count == BadInputCatalog.all.count)
  }
}

/// One invalid input and what the client must answer.
struct BadInput: Sendable, CustomTestStringConvertible {
  /// The input, as a user would write it.
  let input: String
  /// The code Firestore would give.
  let code: FirestoreError.Code
  /// A substring of the message that names the input.
  let mentions: String
  /// Request path suffixes the surrounding call may send (a transaction's begin and rollback).
  let allowed: [String]
  /// Makes the bad call.
  let call: @Sendable (Firestore, MockFirestoreServer) async throws -> Void

  init(
    _ input: String, _ code: FirestoreError.Code = .invalidArgument, mentions: String, allowed: [String] = [],
    _ call: @escaping @Sendable (Firestore, MockFirestoreServer) async throws -> Void
  ) {
    self.input = input
    self.code = code
    self.mentions = mentions
    self.allowed = allowed
    self.call = call
  }

  var testDescription: String { input }
}

/// A value with no Firestore representation.
private struct Opaque: Sendable {}

/// An `Encodable` whose integer does not fit Firestore's 64-bit signed integers.
private struct Meter: Encodable {
  var reading: UInt64
}

/// A value nested `containers` maps deep, with a number at the bottom.
func nestedMaps(_ containers: Int) -> any Sendable {
  var value: any Sendable = 1
  for _ in 0..<containers { value = ["m": value] as [String: any Sendable] }
  return value
}

enum BadInputCatalog {
  static let all = paths + fieldPaths + values + sentinels + queries + aggregations + transactions + batches + listens

  static let paths: [BadInput] = [
    BadInput("document(\"\")", mentions: "document path must be a non-empty string") { db, _ in _ = try await db.document("").getDocument()
    },
    BadInput("collection(\"\")", mentions: "collection path must be a non-empty string") { db, _ in
      _ = try await db.collection("").getDocuments()
    },
    BadInput("document with an odd segment count", mentions: "\"cities\" has an odd number of segments") { db, _ in
      _ = try await db.document("cities").getDocument()
    },
    BadInput("collection with an even segment count", mentions: "\"cities/SF\" has an even number of segments") { db, _ in
      _ = try await db.collection("cities/SF").getDocuments()
    },
    BadInput("path with an empty segment", mentions: "\"cities//SF\" has an empty segment") { db, _ in
      try await db.document("cities//SF").setData(["a": 1])
    },
    BadInput("document ID \"..\"", mentions: "ID \"..\" in document path \"cities/..\" is not allowed") { db, _ in
      _ = try await db.document("cities/..").getDocument()
    },
    BadInput("document ID \".\"", mentions: "document path \".\" is not allowed") { db, _ in
      try await db.collection("cities").document(".").delete()
    },
    // Documented as reserved; the emulator stores such IDs, production refuses them.
    BadInput("reserved document ID __x__", mentions: "ID \"__x__\" in document path \"cities/__x__\" is reserved") { db, _ in
      try await db.document("cities/__x__").setData(["a": 1])
    },
    BadInput("reserved collection ID __c__", mentions: "\"__c__\" is reserved") { db, _ in
      try await db.collection("__c__").addDocument(data: ["a": 1])
    },
    BadInput("document ID of 1501 bytes", mentions: "is 1501 bytes; the maximum is 1500") { db, _ in
      _ = try await db.collection("c").document(String(repeating: "x", count: 1501)).getDocument()
    },
    BadInput("document ID containing \"/\"", mentions: "\"c/a/b\" has an odd number of segments") { db, _ in
      _ = try await db.collection("c").document("a/b").getDocument()
    },
    BadInput("collection group ID containing \"/\"", mentions: "collection group ID \"a/b\" must not contain \"/\"") { db, _ in
      _ = try await db.collectionGroup("a/b").getDocuments()
    },
    BadInput("empty collection group ID", mentions: "collection group ID \"\" is empty") { db, _ in
      _ = try await db.collectionGroup("").count.getAggregation()
    },
    // A huge input is quoted by its start, so that the problem is not cut off the message.
    BadInput("path of 7,000 characters with an empty segment", mentions: "… (7003 bytes)\" has an empty segment") { db, _ in
      try await db.document(String(repeating: "a", count: 7000) + "//b").setData(["a": 1])
    },
    BadInput("ID of 1501 bytes deep in a long path", mentions: "is 1501 bytes; the maximum is 1500") { db, _ in
      let parents = Array(repeating: String(repeating: "q", count: 700), count: 4).joined(separator: "/")
      _ = try await db.document(parents + "/" + String(repeating: "x", count: 1501) + "/d").getDocument()
    },
    BadInput("path of 202 segments", mentions: "has 202 segments; Firestore allows 200") { db, _ in
      _ = try await db.document((0..<202).map { "s\($0)" }.joined(separator: "/")).getDocument()
    },
    BadInput("path over 6 KiB", mentions: "bytes; Firestore's limit is 6144") { db, _ in
      let id = String(repeating: "p", count: 1400)
      _ = try await db.document([id, id, id, id, id, id].joined(separator: "/")).getDocument()
    },
    BadInput("empty project ID", mentions: "project ID must not be empty") { db, _ in
      _ = try await Firestore(projectID: "", settings: db.settings).document("c/d").getDocument()
    },
    BadInput("database ID with a slash", mentions: "database ID \"a/b\" must not contain") { db, _ in
      _ = try await Firestore(projectID: "p", database: "a/b", settings: db.settings).collection("c").getDocuments()
    },
    BadInput("listCollections of an invalid document", mentions: "\"a\" has an odd number of segments") { db, _ in
      _ = try await db.document("a").listCollections()
    },
    BadInput("listDocuments with pageSize 0", mentions: "pageSize must be positive, got 0") { db, _ in
      for try await _ in db.collection("c").listDocuments(pageSize: 0) {}
    },
  ]

  static let fieldPaths: [BadInput] = [
    BadInput("filter on an empty field path", mentions: "field path must be a non-empty string") { db, _ in
      _ = try await db.collection("c").whereField("", isEqualTo: 1).getDocuments()
    },
    BadInput("field path of 5,000 characters with a \"~\"", mentions: "(5001 bytes)\" contains one of ~ * / [ ]") { db, _ in
      _ = try await db.collection("c").whereField(String(repeating: "f", count: 5000) + "~", isEqualTo: 1).getDocuments()
    },
    BadInput("field path with a doubled dot", mentions: "\"a..b\" has an empty field name") { db, _ in
      _ = try await db.collection("c").whereField("a..b", isEqualTo: 1).getDocuments()
    },
    BadInput("order by a field path with a leading dot", mentions: "\".a\" has an empty field name") { db, _ in
      _ = try await db.collection("c").order(by: ".a").getDocuments()
    },
    BadInput("dotted field path with \"~\"", mentions: "\"a~b\" contains one of ~ * / [ ]") { db, _ in
      _ = try await db.collection("c").whereField("a~b", isEqualTo: 1).getDocuments()
    },
    BadInput("FieldPath with no names", mentions: "field path must have at least one field name") { db, _ in
      _ = try await db.collection("c").order(by: FieldPath([])).getDocuments()
    },
    BadInput("FieldPath with an empty name", mentions: "field path a. has an empty field name") { db, _ in
      _ = try await db.collection("c").select([FieldPath(["a", ""])]).getDocuments()
    },
    // The emulator: "Invalid reserved name in field path __x__".
    BadInput("filter on reserved field __x__", mentions: "\"__x__\" uses the reserved name \"__x__\"") { db, _ in
      _ = try await db.collection("c").whereField("__x__", isEqualTo: 1).getDocuments()
    },
    // The emulator: "the name __key__ is reserved".
    BadInput("order by a.__name__", mentions: "\"a.__name__\" uses the reserved name \"__name__\"") { db, _ in
      _ = try await db.collection("c").order(by: "a.__name__").getDocuments()
    },
    BadInput("getAll field mask __x__", mentions: "reserved name \"__x__\"") { db, _ in
      _ = try await db.getAll([db.document("c/d")], fieldMask: ["__x__"])
    },
    BadInput("updateData of __name__", mentions: "field name \"__name__\" is reserved") { db, _ in
      try await db.document("c/d").updateData(["__name__": 1])
    },
    BadInput("setData with field __x__", mentions: "field name \"__x__\" is reserved") { db, _ in
      try await db.document("c/d").setData(["__x__": 1])
    },
    BadInput("setData with an empty field name", mentions: "field names must not be empty") { db, _ in
      try await db.document("c/d").setData(["ok": ["": 1] as [String: any Sendable]])
    },
    BadInput("updateData key with a trailing dot", mentions: "\"a.\" has an empty field name") { db, _ in
      try await db.document("c/d").updateData(["a.": 1])
    },
    BadInput("document ID filter with an Int", mentions: "needs a String ID or a DocumentReference, got Int") { db, _ in
      _ = try await db.collection("c").whereField(FieldPath.documentID(), isEqualTo: 5).getDocuments()
    },
    BadInput("array-contains on the document ID", mentions: "'array-contains' cannot be used on the document ID") { db, _ in
      _ = try await db.collection("c").whereField(FieldPath.documentID(), arrayContains: "x").getDocuments()
    },
    BadInput("document ID filter with a slash", mentions: "document ID \"a/b\" must not contain \"/\"") { db, _ in
      _ = try await db.collection("c").whereField(FieldPath.documentID(), isEqualTo: "a/b").getDocuments()
    },
    BadInput("mergeFields naming a field not in the data", mentions: "\"missing\" is listed in mergeFields") { db, _ in
      try await db.document("c/d").setData(["a": 1], mergeFields: ["missing"])
    },
    BadInput("updateData of overlapping fields", mentions: "field \"a\" and field \"a.b\" overlap") { db, _ in
      try await db.document("c/d").updateData(["a": 1, "a.b": 2])
    },
    BadInput("updateData naming one field with two keys", mentions: "field \"a\" is named by two keys") { db, _ in
      try await db.document("c/d").updateData(["a": 1, FieldPath(["a"]): 2] as [AnyHashable: Any])
    },
  ]

  static let values: [BadInput] = [
    // The emulator: "Property m contains an invalid nested entity." (21 levels; 20 pass).
    BadInput("maps nested 21 deep", mentions: "is nested more than 20 levels") { db, _ in
      try await db.document("c/d").setData(["m": nestedMaps(21)])
    },
    BadInput("a document over 1 MiB", mentions: "Firestore's maximum is 1048576 bytes (1 MiB)") { db, _ in
      try await db.document("c/big").setData(["s": String(repeating: "x", count: 1_048_576)])
    },
    BadInput("a value of an unsupported type", mentions: "field \"o\" has unsupported type Opaque") { db, _ in
      try await db.document("c/d").setData(["o": Opaque()])
    },
    BadInput("UInt64.max", mentions: "field \"n\" has integer 18446744073709551615, which does not fit") { db, _ in
      try await db.document("c/d").setData(["n": UInt64.max])
    },
    BadInput("an array inside an array", mentions: "field \"a.[0]\" holds an array inside an array") { db, _ in
      try await db.document("c/d").setData(["a": [[1, 2]] as [any Sendable]])
    },
    BadInput("a wire array inside a wire array", mentions: "field \"x.[0]\" holds an array inside an array") { db, _ in
      try await db.document("a/j").setData(["x": Value.array([.array([.integer(1)])])])
    },
    BadInput("wire maps nested 21 deep", mentions: "is nested more than 20 levels of maps and arrays deep") { db, _ in
      let deep = (1..<21).reduce(Value.map(["n": .integer(1)])) { inner, _ in .map(["m": inner]) }
      try await db.document("c/d").setData(["m": deep])
    },
    BadInput("a wire geo point at latitude 1000", mentions: "field \"g\" has geo point (1000.0, 200.0) outside") { db, _ in
      try await db.document("c/d").setData(["g": Value.geoPoint(GeoPoint(latitude: 1000, longitude: 200))])
    },
    BadInput("a wire reference that is not a document name", mentions: "references \"nonsense\", which is not a document") { db, _ in
      try await db.document("c/d").setData(["r": Value.reference("nonsense")])
    },
    BadInput("a wire array inside an array, through updateData", mentions: "holds an array inside an array") { db, _ in
      try await db.document("c/d").updateData(["x": Value.array([.array([.integer(1)])])])
    },
    BadInput("a timestamp in year 10000", mentions: "field \"t\" has timestamp 253402300800s outside Firestore's range") { db, _ in
      try await db.document("c/d").setData(["t": Timestamp(seconds: 253_402_300_800, nanoseconds: 0)])
    },
    BadInput("a geo point at latitude 91", mentions: "field \"g\" has geo point (91.0, 0.0) outside") { db, _ in
      try await db.document("c/d").setData(["g": GeoPoint(latitude: 91, longitude: 0)])
    },
    BadInput("a reference to another database", mentions: "references c/x in projects/elsewhere/databases/(default)") { db, _ in
      let other = Firestore(projectID: "elsewhere", settings: db.settings)
      try await db.document("c/d").setData(["r": other.document("c/x")])
    },
    BadInput("a reference with an invalid path", mentions: "\"odd\" has an odd number of segments") { db, _ in
      try await db.document("c/d").setData(["r": db.document("odd")])
    },
    BadInput("setData(from:) of a bare number", mentions: "can only encode a struct, class or dictionary as a document, got Int") { db, _ in
      try db.document("c/d").setData(from: 5)
    },
    BadInput("setData(from:) with an unsigned integer overflow", mentions: "\"reading\" has integer 18446744073709551615") { db, _ in
      try db.document("c/d").setData(from: Meter(reading: .max))
    },
    BadInput("a filter value of an unsupported type", mentions: "has unsupported type Opaque") { db, _ in
      _ = try await db.collection("c").whereField("a", isEqualTo: Opaque()).getDocuments()
    },
  ]

  static let sentinels: [BadInput] = [
    BadInput("serverTimestamp inside an array", mentions: "FieldValue.serverTimestamp() is not supported inside arrays (field \"a.[0]\")") {
      db, _ in
      try await db.document("c/d").setData(["a": [FieldValue.serverTimestamp()] as [any Sendable]])
    },
    BadInput("serverTimestamp in a map inside an array", mentions: "is not supported inside arrays (field \"a.[0].at\")") { db, _ in
      try await db.document("c/d").setData(["a": [["at": FieldValue.serverTimestamp()]] as [any Sendable]])
    },
    BadInput("arrayUnion inside arrayUnion", mentions: "FieldValue.arrayUnion() at \"tags\" cannot contain another FieldValue") { db, _ in
      try await db.document("c/d").updateData(["tags": FieldValue.arrayUnion([FieldValue.arrayUnion([1])])])
    },
    BadInput("delete in setData without merge", mentions: "FieldValue.delete() at \"a\" can only be used with updateData") { db, _ in
      try await db.document("c/d").setData(["a": FieldValue.delete()])
    },
    BadInput("delete nested in an updateData map", mentions: "FieldValue.delete() at \"a.b\" can only appear at the top level") { db, _ in
      try await db.document("c/d").updateData(["a": ["b": FieldValue.delete()] as [String: any Sendable]])
    },
    BadInput("serverTimestamp as a filter value", mentions: "FieldValue.serverTimestamp() can only be used in setData and updateData") {
      db, _ in
      _ = try await db.collection("c").whereField("a", isEqualTo: FieldValue.serverTimestamp()).getDocuments()
    },
    BadInput(
      "increment as a cursor value", mentions: "FieldValue.increment() can only be used in setData and updateData, not in start cursor"
    ) {
      db, _ in
      _ = try await db.collection("c").order(by: "a").start(at: [FieldValue.increment(1)]).getDocuments()
    },
  ]

  static let queries: [BadInput] = [
    BadInput("!= with not-in", mentions: "only one '!=' or 'not-in' filter, got a != and b not-in") { db, _ in
      _ = try await db.collection("c").whereField("a", isNotEqualTo: 1).whereField("b", notIn: [1]).getDocuments()
    },
    BadInput("two array-contains", mentions: "'array-contains' and 'array-contains' filters cannot be combined") { db, _ in
      _ = try await db.collection("c").whereField("a", arrayContains: 1).whereField("b", arrayContains: 2).getDocuments()
    },
    BadInput("in with 31 values", mentions: "filter on \"a\" in has 31 values; the maximum is 30") { db, _ in
      _ = try await db.collection("c").whereField("a", in: Array(0..<31)).getDocuments()
    },
    BadInput("not-in with 11 values", mentions: "filter on \"a\" not-in has 11 values; the maximum is 10") { db, _ in
      _ = try await db.collection("c").whereField("a", notIn: Array(0..<11)).getDocuments()
    },
    BadInput("array-contains-any with no values", mentions: "filter on \"a\" array-contains-any needs a non-empty array") { db, _ in
      _ = try await db.collection("c").whereField("a", arrayContainsAny: []).getDocuments()
    },
    // The emulator: "Too many disjunctions after normalization. Result had 31 disjunctions …".
    BadInput("OR of 31 equalities", mentions: "make 31 disjunctions in normal form") { db, _ in
      let terms = (0..<31).map { Filter.whereField("a", isEqualTo: $0) }
      _ = try await db.collection("c").whereFilter(.orFilter(terms)).getDocuments()
    },
    BadInput("in 6 values AND in 6 values", mentions: "make 36 disjunctions in normal form") { db, _ in
      _ = try await db.collection("c").whereField("a", in: Array(0..<6)).whereField("b", in: Array(0..<6)).getDocuments()
    },
    BadInput("limit(toLast:) without order(by:)", mentions: "limit(toLast:) needs at least one order(by:) clause") { db, _ in
      _ = try await db.collection("c").limit(toLast: 3).getDocuments()
    },
    BadInput("cursor with more values than orderings", mentions: "start cursor has 2 values but the query has 1 order(by:) clause") {
      db, _ in
      _ = try await db.collection("c").order(by: "a").start(at: [1, 2]).getDocuments()
    },
    BadInput("order(by:) after a cursor", mentions: "order(by:) must be called before start(at:)") { db, _ in
      _ = try await db.collection("c").start(at: [1]).order(by: "a").getDocuments()
    },
    BadInput("empty cursor", mentions: "end cursor has no values") { db, _ in
      _ = try await db.collection("c").order(by: "a").end(before: []).getDocuments()
    },
    BadInput("cursor at a missing document", mentions: "start cursor uses document c/gone, which does not exist") { db, _ in
      let missing = DocumentSnapshot(reference: db.document("c/gone"), document: nil, readTime: nil)
      _ = try await db.collection("c").order(by: "a").start(afterDocument: missing).getDocuments()
    },
    BadInput("cursor at a document without the ordered field", mentions: "c/d, which has no field \"a\" used in order(by:)") { db, _ in
      let ref = db.document("c/d")
      let snapshot = DocumentSnapshot(reference: ref, document: Document(name: ref.name, fields: ["b": .integer(1)]), readTime: nil)
      _ = try await db.collection("c").order(by: "a").start(atDocument: snapshot).getDocuments()
    },
    // The emulator: "limit is negative". (A zero limit is accepted there.)
    BadInput("limit(to: -1)", mentions: "limit(to:) must be in 1...2147483647, got -1") { db, _ in
      _ = try await db.collection("c").limit(to: -1).getDocuments()
    },
    BadInput("limit(toLast: -4)", mentions: "limit(toLast:) must be in 1...2147483647, got -4") { db, _ in
      _ = try await db.collection("c").order(by: "a").limit(toLast: -4).getDocuments()
    },
    // The emulator: "offset is negative".
    BadInput("offset(-5)", mentions: "offset(_:) must be in 0...2147483647, got -5") { db, _ in
      _ = try await db.collection("c").offset(-5).getDocuments()
    },
    BadInput("limit over Int32", mentions: "got 4294967296") { db, _ in
      _ = try await db.collection("c").limit(to: 1 << 32).getDocuments()
    },
  ]

  static let aggregations: [BadInput] = [
    BadInput("sum of an empty field path", mentions: "field path must be a non-empty string") { db, _ in
      _ = try await db.collection("c").aggregate([.sum("")]).getAggregation()
    },
    // The emulator: "Aggregations are not supported for the property: __key__".
    BadInput("average of the document ID", mentions: "sum and average cannot aggregate the document ID") { db, _ in
      _ = try await db.collection("c").aggregate([.average(FieldPath.documentID())]).getAggregation()
    },
    BadInput("sum of reserved field __x__", mentions: "reserved name \"__x__\"") { db, _ in
      _ = try await db.collection("c").aggregate([.sum("__x__")]).getAggregation()
    },
    // The emulator fails with an opaque 500 UNKNOWN for a sixth aggregation.
    BadInput("six aggregations", mentions: "aggregate(_:) has 6 different aggregations; Firestore allows at most 5") { db, _ in
      _ = try await db.collection("c").aggregate([.count(), .sum("a"), .sum("b"), .sum("c"), .average("a"), .average("b")])
        .getAggregation()
    },
    BadInput("no aggregations", mentions: "aggregate(_:) needs at least one aggregation") { db, _ in
      _ = try await db.collection("c").aggregate([]).getAggregation()
    },
  ]

  /// A transaction may begin and roll back around the bad call; the bad call itself sends nothing.
  private static let transactionRPCs = [":beginTransaction", ":rollback"]

  static let transactions: [BadInput] = [
    BadInput(
      "transaction read after a write", mentions: "getDocument(c/d): a transaction must do all its reads before its writes",
      allowed: transactionRPCs
    ) {
      db, _ in
      try await db.runTransaction { tx in
        tx.setData(["n": 1], forDocument: db.document("c/d"))
        _ = try await tx.getDocument(db.document("c/d"))
      }
    },
    BadInput(
      "transaction query after a write", mentions: "getDocuments: a transaction must do all its reads before its writes",
      allowed: transactionRPCs
    ) {
      db, _ in
      try await db.runTransaction { tx in
        tx.deleteDocument(db.document("c/d"))
        _ = try await tx.getDocuments(db.collection("c"))
      }
    },
    BadInput("write in a read-only transaction", mentions: "cannot write c/d in a read-only transaction", allowed: transactionRPCs) {
      db, _ in
      try await db.runTransaction(options: TransactionOptions(readOnly: true)) { tx in
        tx.setData(["n": 1], forDocument: db.document("c/d"))
        return ()
      }
    },
    BadInput("invalid data written in a transaction", mentions: "field \"o\" has unsupported type Opaque", allowed: transactionRPCs) {
      db, _ in
      try await db.runTransaction { tx in
        tx.setData(["o": Opaque()], forDocument: db.document("c/d"))
        return ()
      }
    },
    BadInput("transaction with maxAttempts 0", mentions: "maxAttempts must be at least 1, got 0") { db, _ in
      try await db.runTransaction(options: TransactionOptions(maxAttempts: 0)) { _ in }
    },
    BadInput("read-write transaction at a readTime", mentions: "TransactionOptions.readTime needs readOnly: true") { db, _ in
      try await db.runTransaction(options: TransactionOptions(readTime: Timestamp(seconds: 1, nanoseconds: 0))) { _ in }
    },
  ]

  static let batches: [BadInput] = [
    BadInput("a batch committed twice", mentions: "this WriteBatch was already committed") { db, server in
      let batch = db.batch()
      batch.setData(["a": 1], forDocument: db.document("c/d"))
      try await batch.commit()
      server.requestLog.clear()
      try await batch.commit()
    },
    BadInput("a batch with one invalid write", mentions: "field \"b\" has unsupported type Opaque") { db, _ in
      let batch = db.batch()
      batch.setData(["a": 1], forDocument: db.document("c/ok"))
      batch.updateData(["b": Opaque()], forDocument: db.document("c/bad"))
      try await batch.commit()
    },
    BadInput("a batch writing another instance's document", mentions: "belongs to another Firestore instance than this batch") { db, _ in
      let other = Firestore(projectID: "catalog", settings: db.settings)
      let batch = db.batch()
      batch.setData(["a": 1], forDocument: other.document("c/d"))
      try await batch.commit()
    },
    BadInput("a batch over 10 MiB", mentions: "Firestore's request limit is 10485760 bytes (10 MiB)") { db, _ in
      let batch = db.batch()
      let filler = String(repeating: "f", count: 1_000_000)
      for i in 0..<11 { batch.setData(["s": filler], forDocument: db.document("c/d\(i)")) }
      try await batch.commit()
    },
  ]

  static let listens: [BadInput] = [
    BadInput("listening to an invalid query", mentions: "filter on \"a\" in has 31 values") { db, _ in
      for try await _ in db.collection("c").whereField("a", in: Array(0..<31)).snapshots { break }
    },
    BadInput("listening to an invalid document path", mentions: "\"odd\" has an odd number of segments") { db, _ in
      for try await _ in db.document("odd").snapshots { break }
    },
  ]
}
