import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Pipeline queries (`executePipeline`) on the subset the mock runs.
///
/// The emulator on these machines does not run pipelines: over REST it answers HTTP 500
/// `{"error":{"code":500,"status":"UNKNOWN"}}`, and its log says "executePipeline is not
/// supported in the Firestore emulator yet" (verified with curl). Each test asks the
/// backend once; where the emulator gives that answer the test checks it and stops, so an
/// emulator that runs pipelines runs the whole case. The expected results follow
/// Firestore's pipeline documentation.
@Suite("Conformance: pipelines")
struct PipelineConformanceTests {
  /// Runs `pipeline`, or returns `nil` after checking the emulator's "not supported" answer.
  private func run(_ backend: Backend, _ pipeline: Pipeline) async throws -> Pipeline.Snapshot? {
    do {
      return try await pipeline.execute()
    } catch let error as FirestoreError where backend.reachesEmulator && error.httpStatus == 500 {
      #expect(error.code == .unknown, "the emulator's answer to executePipeline: \(error)")
      return nil
    }
  }

  /// A collection no other test uses, holding `documents` by ID.
  private func collection(_ db: Firestore, _ documents: [String: [String: any Sendable]], _ hint: String = #function) async throws
    -> CollectionReference
  {
    let coll = db.collection("\(hint.filter(\.isLetter).prefix(16))\(AutoID.make().prefix(6))")
    let batch = db.batch()
    for (id, data) in documents { batch.setData(data, forDocument: coll.document(id)) }
    try await batch.commit()
    return coll
  }

  private func ids(_ snapshot: Pipeline.Snapshot) -> [String] { snapshot.results.compactMap(\.id) }

  @Test("where: comparisons are two-valued; null, NaN, absent fields and other types as documented", arguments: Backend.all)
  func comparisons(_ backend: Backend) async throws {
    let db = backend.db
    let coll = try await collection(
      db,
      [
        "int": ["v": 1], "double": ["v": 1.0], "two": ["v": 2], "nan": ["v": Double.nan], "null": ["v": NSNull()],
        "string": ["v": "1"], "absent": ["w": 1],
      ])
    let source = db.pipeline().collection(coll)
    func matching(_ condition: BooleanExpression) async throws -> [String]? {
      try await run(backend, source.where(condition).sort([Field(FieldPath.documentID()).ascending()])).map(ids)
    }
    guard let equalOne = try await matching(Field("v").equal(1)) else { return }
    #expect(equalOne == ["double", "int"], "1 == 1.0")
    #expect(try await matching(Field("v").equal(Double.nan)) == ["nan"], "NaN equals NaN")
    #expect(try await matching(Field("v").equal(Constant.nil)) == ["null"], "null equals null, not an absent field")
    #expect(
      try await matching(Field("v").notEqual(1)) == ["absent", "nan", "null", "string", "two"],
      "not_equal is true for an absent field")
    #expect(try await matching(Field("v").greaterThan(0)) == ["double", "int", "two"], "other types and NaN are in no range")
    #expect(try await matching(Field("v").lessThan("2")) == ["string"])
    #expect(try await matching(Field("v").greaterThanOrEqual(Constant.nil)) == ["null"])
    #expect(try await matching(Field("v").equalAny([2, "1"])) == ["string", "two"])
    #expect(try await matching(Field("v").notEqualAny([1, 2])) == ["absent", "nan", "null", "string"])
    #expect(try await matching(Field("v").exists() && !Field("v").equal(1)) == ["nan", "null", "string", "two"])
    #expect(try await matching(Field("v").isAbsent()) == ["absent"])
  }

  @Test("logic is three-valued, and only true keeps a document", arguments: Backend.all)
  func logic(_ backend: Backend) async throws {
    let db = backend.db
    let coll = try await collection(
      db, ["t": ["b": true], "f": ["b": false], "n": ["b": NSNull()], "a": [:], "s": ["b": "text"]])
    let source = db.pipeline().collection(coll).sort([Field(FieldPath.documentID()).ascending()])
    guard
      let snapshot = try await run(
        backend,
        source.select([
          Field(FieldPath.documentID()),
          (Field("b").asBoolean() && Constant(true).asBoolean()).as("and"),
          (Field("b").asBoolean() || Constant(false).asBoolean()).as("or"),
          (Field("b").asBoolean() || Constant(true).asBoolean()).as("orTrue"),
          (Field("b").asBoolean() ^ Constant(true).asBoolean()).as("xor"),
          ConditionalExpression(Field("b").asBoolean(), then: Constant("yes"), else: Constant("no")).as("if"),
        ]))
    else { return }
    let rows = Dictionary(snapshot.results.map { ($0.id ?? "?", $0) }, uniquingKeysWith: { a, _ in a })
    func row(_ id: String) -> [String: FirestoreWire.Value] { rows[id]?.fields ?? [:] }
    #expect(rows.count == 5)
    #expect(row("t")["and"] == .boolean(true) && row("f")["and"] == .boolean(false) && row("n")["and"] == .null)
    #expect(row("a")["and"] == .null, "an absent operand counts as null")
    #expect(row("f")["or"] == .boolean(false) && row("n")["or"] == .null && row("n")["orTrue"] == .boolean(true))
    #expect(row("t")["xor"] == .boolean(false) && row("n")["xor"] == .null)
    #expect(row("t")["if"] == .string("yes") && row("n")["if"] == .string("no") && row("a")["if"] == .string("no"))
    #expect(row("s")["and"] == .null, "an error in select is null")
    let booleans = source.where(Field("b").notEqual("text"))
    let kept = try await run(backend, booleans.where(Field("b").asBoolean() || Constant(false).asBoolean()))
    #expect(kept.map(ids) == ["t"])
    // Not documented: the mock fails a `where` whose condition cannot be evaluated, as
    // `error(…)` is documented to fail the pipeline.
    let failed = await #expect(throws: FirestoreError.self) { try await source.where(!Field("b").asBoolean()).execute() }
    #expect(failed?.code == .invalidArgument)
  }

  @Test("arithmetic: integers stay integers, overflow and division by zero are errors, doubles follow IEEE", arguments: Backend.all)
  func arithmetic(_ backend: Backend) async throws {
    let db = backend.db
    let coll = try await collection(db, ["d": ["i": 7, "x": 2.5, "big": Int64.max, "n": NSNull()]])
    let i = Field("i")
    guard
      let snapshot = try await run(
        backend,
        db.pipeline().collection(coll).select([
          i.add(3).as("add"), i.subtract(10).as("sub"), i.multiply(Field("x")).as("mul"), i.divide(2).as("div"),
          Constant(-7).mod(3).as("mod"), i.divide(0).as("divZero"), Field("x").divide(0.0).as("inf"),
          Field("big").add(1).as("overflow"), i.divide(0).ifError(-1).as("caught"), i.divide(0).isError().as("isError"),
          Field("n").add(1).as("null"), Field("missing").add(1).as("absent"), Constant(-5).abs().as("abs"),
        ]))
    else { return }
    let fields = snapshot.results.first?.fields ?? [:]
    #expect(fields["add"] == .integer(10) && fields["sub"] == .integer(-3) && fields["div"] == .integer(3))
    #expect(fields["mul"] == .double(17.5) && fields["mod"] == .integer(-1) && fields["abs"] == .integer(5))
    #expect(fields["inf"] == .double(.infinity))
    #expect(fields["divZero"] == .null && fields["overflow"] == .null, "an error in select is null")
    #expect(fields["caught"] == .integer(-1) && fields["isError"] == .boolean(true))
    #expect(fields["null"] == .null && fields["absent"] == .null)
    #expect(snapshot.results.first?.ref == nil, "a select's result is no stored document")
  }

  @Test("string functions count code points", arguments: Backend.all)
  func strings(_ backend: Backend) async throws {
    let db = backend.db
    let coll = try await collection(db, ["d": ["s": "  Héllo, wörld 🌍 ", "p": "100%"]])
    let s = Field("s")
    guard
      let snapshot = try await run(
        backend,
        db.pipeline().collection(coll).select([
          s.charLength().as("chars"), s.byteLength().as("bytes"), s.trim().toUpper().as("upper"), s.trim().as("trim"),
          s.trim().startsWith("Hé").as("starts"), s.trim().endsWith("🌍").as("ends"), s.stringContains("wör").as("contains"),
          s.like("%wör_d%").as("like"), Field("p").like("100\\%").as("escaped"), s.trim().stringReverse().as("reversed"),
          s.trim().substring(position: 7, length: 5).as("sub"), s.trim().substring(position: -1).as("last"),
          Field("p").stringConcat([" sure", "!"]).as("concat"), Field("missing").toLower().as("absent"),
        ]))
    else { return }
    let f = snapshot.results.first?.fields ?? [:]
    #expect(f["chars"] == .integer(17) && f["bytes"] == .integer(22))
    #expect(f["upper"] == .string("HÉLLO, WÖRLD 🌍") && f["trim"] == .string("Héllo, wörld 🌍"))
    #expect(f["starts"] == .boolean(true) && f["ends"] == .boolean(true) && f["contains"] == .boolean(true))
    #expect(f["like"] == .boolean(true) && f["escaped"] == .boolean(true))
    #expect(f["reversed"] == .string("🌍 dlröw ,olléH") && f["sub"] == .string("wörld") && f["last"] == .string("🌍"))
    #expect(f["concat"] == .string("100% sure!") && f["absent"] == .null)
  }

  @Test("sort puts absent and null first; offset and limit page through", arguments: Backend.all)
  func sortAndPage(_ backend: Backend) async throws {
    let db = backend.db
    let coll = try await collection(
      db,
      [
        "a": ["rank": 3, "name": "x"], "b": ["rank": 1], "c": ["rank": NSNull()], "d": [:], "e": ["rank": "z"],
        "f": ["rank": 1, "name": "a"],
      ])
    let byRank = db.pipeline().collection(coll).sort([Field("rank").ascending(), Field(FieldPath.documentID()).ascending()])
    guard let all = try await run(backend, byRank) else { return }
    #expect(ids(all) == ["c", "d", "b", "f", "a", "e"], "null and absent sort together, first; numbers before strings")
    #expect(try await run(backend, byRank.offset(2).limit(3)).map(ids) == ["b", "f", "a"])
    let descending = db.pipeline().collection(coll).sort([Field("rank").descending(), Field("name").descending()])
    #expect(try await run(backend, descending.limit(3)).map(ids) == ["e", "a", "f"])
  }

  @Test("select, addFields and removeFields shape the results", arguments: Backend.all)
  func projections(_ backend: Backend) async throws {
    let db = backend.db
    let coll = try await collection(db, ["d": ["a": 1, "m": ["x": 1, "y": 2], "gone": true]])
    guard
      let added = try await run(
        backend,
        db.pipeline().collection(coll).addFields([Field("a").add(1).as("b"), Field("m.x").as("m.x2")]).removeFields([
          "gone", "m.y",
        ]))
    else { return }
    let doc = try #require(added.results.first)
    #expect(doc.id == "d" && doc.createTime != nil, "addFields keeps the document")
    #expect(doc.fields == ["a": .integer(1), "b": .integer(2), "m": .map(["x": .integer(1)]), "m.x2": .integer(1)])
    let selected = try #require(
      try await run(backend, db.pipeline().collection(coll).select([Field("m.y"), Field("missing"), Field("a").as("z")]))?.results
        .first)
    #expect(selected.ref == nil && selected.createTime == nil)
    #expect(selected.fields == ["m.y": .integer(2), "z": .integer(1)], "an absent field is left out")
  }

  @Test("aggregate and distinct group numbers by value; no groups is one row even over nothing", arguments: Backend.all)
  func aggregates(_ backend: Backend) async throws {
    let db = backend.db
    let coll = try await collection(
      db,
      [
        "a": ["g": 1, "v": 10], "b": ["g": 1.0, "v": 2.5], "c": ["g": "x", "v": "text"], "d": ["g": NSNull(), "v": NSNull()],
        "e": ["v": 4],
      ])
    let source = db.pipeline().collection(coll)
    guard
      let grouped = try await run(
        backend,
        source.aggregate(
          [
            CountAll().as("n"), Field("v").count().as("values"), Field("v").sum().as("sum"), Field("v").average().as("avg"),
            Field("v").minimum().as("min"), Field("v").maximum().as("max"), Field("v").countDistinct().as("distinct"),
            Field("v").greaterThan(3).countIf().as("big"),
          ], groups: [Field("g")]))
    else { return }
    var rows: [String: [String: FirestoreWire.Value]] = [:]
    for result in grouped.results {
      let key: String
      switch result.fields["g"] {
      case .integer?, .double?: key = "number"
      case .string(let s)?: key = s
      default: key = "null"
      }
      rows[key] = result.fields
    }
    #expect(grouped.results.count == 3, "1 and 1.0 are one group; null and absent are another")
    #expect(rows["number"]?["n"] == .integer(2) && rows["number"]?["sum"] == .double(12.5))
    #expect(rows["number"]?["avg"] == .double(6.25) && rows["number"]?["min"] == .double(2.5))
    #expect(rows["number"]?["max"] == .integer(10) && rows["number"]?["big"] == .integer(1))
    #expect(rows["x"]?["sum"] == .null && rows["x"]?["avg"] == .null && rows["x"]?["max"] == .string("text"))
    #expect(rows["null"]?["n"] == .integer(2) && rows["null"]?["values"] == .integer(1) && rows["null"]?["sum"] == .integer(4))
    #expect(rows["x"]?["distinct"] == .integer(1) && rows["number"]?["distinct"] == .integer(2))

    let empty = try await run(backend, source.where(Field("v").equal("none")).aggregate([CountAll().as("n"), Field("v").sum().as("s")]))
    #expect(empty?.results.map(\.fields) == [["n": .integer(0), "s": .null]])
    let distinct = try await run(backend, source.distinct([Field("g")]))
    #expect(distinct?.results.count == 3)
  }

  @Test("sources: a nested collection, a group, the database, named documents, and a converted query", arguments: Backend.all)
  func sources(_ backend: Backend) async throws {
    let db = backend.isolatedFirestore()
    let group = "g\(AutoID.make().prefix(8))"
    for path in ["\(group)/one", "p/q/\(group)/two", "p/q/\(group)/three", "other/x"] {
      try await db.document(path).setData(["path": path, "n": path.count])
    }
    guard let nested = try await run(backend, db.pipeline().collection("p/q/\(group)")) else { return }
    #expect(Set(ids(nested)) == ["two", "three"])
    #expect(try await run(backend, db.pipeline().collectionGroup(group)).map { Set(ids($0)) } == ["one", "two", "three"])
    #expect(try await run(backend, db.pipeline().database()).map { $0.results.count } == 4)
    let named = try await run(backend, db.pipeline().documents(["\(group)/one", "\(group)/missing", "other/x"]))
    #expect(named.map { Set(ids($0)) } == ["one", "x"], "a missing document gives no result")
    let literals = try await run(backend, db.pipeline().literals([["n": Constant(2).add(3)], ["n": 1]]).sort([Field("n").ascending()]))
    #expect(literals?.results.map(\.fields) == [["n": .integer(1)], ["n": .integer(5)]], "literals are evaluated, not read")
    let query = db.collectionGroup(group).whereField("n", isGreaterThan: 12).order(by: "n", descending: true).limit(to: 2)
    let converted = try await run(backend, db.pipeline().create(from: query))
    #expect(converted.map(ids) == (try await query.getDocuments().documents.map(\.documentID)))
    let counted = try await run(backend, db.pipeline().create(from: db.collectionGroup(group).count))
    #expect(counted?.results.first?.fields["field_1"] == .integer(3))
  }

  @Test("what the mock does not run is UNIMPLEMENTED, naming it; explain returns a plan", arguments: Backend.all)
  func unimplementedAndExplain(_ backend: Backend) async throws {
    let db = backend.db
    let coll = try await collection(db, ["d": ["a": 1]])
    let source = db.pipeline().collection(coll)
    do {
      let unnest = try await run(backend, source.unnest(Field("a").as("b")))
      guard unnest != nil else { return }
      Issue.record("the mock ran a stage it says it does not")
    } catch let error as FirestoreError {
      #expect(error.code == .unimplemented && error.message.contains("unnest"), "\(error)")
    }
    let function = await #expect(throws: FirestoreError.self) {
      try await source.where(FunctionExpression(functionName: "regex_match", args: [Field("a"), Constant("x")]).asBoolean())
        .execute()
    }
    #expect(function?.code == .unimplemented && function?.message.contains("regex_match") == true)

    let analyzed = try await source.execute(explainOptions: PipelineExplainOptions())
    #expect(analyzed.results.count == 1 && analyzed.explainStats?.contains("results returned: 1") == true)
    let planned = try await source.execute(explainOptions: PipelineExplainOptions(mode: .explain))
    #expect(planned.results.isEmpty && planned.explainStats?.contains("collection") == true)
  }

  @Test("a pipeline reads the database as it was at a read time", arguments: Backend.all)
  func readTime(_ backend: Backend) async throws {
    let db = backend.db
    let coll = try await collection(db, ["d": ["v": 1]])
    guard let before = try await run(backend, db.pipeline().collection(coll)) else { return }
    try await coll.document("d").setData(["v": 2])
    let old = try await db.pipeline().collection(coll).execute(readTime: before.executionTime)
    #expect(old.results.first?.fields["v"] == .integer(1))
    #expect(try await db.pipeline().collection(coll).execute().results.first?.fields["v"] == .integer(2))
  }
}
