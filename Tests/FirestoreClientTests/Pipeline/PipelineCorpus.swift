import FirestoreWire
import Foundation

@testable import FirestoreClient

/// The pipelines of `scripts/pipeline-corpus.py`, written with this library's API: each
/// case builds, in Swift, the pipeline the script builds with the Python client under
/// the same name. Where the Python client has a method the Apple SDK's API lacks (`log`,
/// `cmp`, the `delete` stage), the case calls it by name with ``FunctionExpression`` or
/// ``Pipeline/rawStage(name:params:options:)``, as an app would.
struct PipelineCorpusCase: Sendable {
  let name: String
  let pipeline: Pipeline
  var readTime: Timestamp?
  var transaction: String?
  var explainOptions: PipelineExplainOptions?
  var additionalOptions: [String: Sendable] = [:]

  init(
    _ name: String, _ pipeline: Pipeline, readTime: Timestamp? = nil, transaction: String? = nil,
    explainOptions: PipelineExplainOptions? = nil, additionalOptions: [String: Sendable] = [:]
  ) {
    self.name = name
    self.pipeline = pipeline
    self.readTime = readTime
    self.transaction = transaction
    self.explainOptions = explainOptions
    self.additionalOptions = additionalOptions
  }

  /// The request body this library sends for the case.
  func body(_ db: Firestore) throws -> JSONValue {
    try pipeline.request(
      firestore: db, readTime: readTime, transaction: transaction, explainOptions: explainOptions,
      additionalOptions: additionalOptions
    ).json
  }
}

enum PipelineCorpus {
  // The script's fixed times: microseconds, a whole second, nanoseconds, and a naive
  // datetime the Python client reads as UTC.
  static let ts = try! Timestamp(rfc3339: "2024-05-06T07:08:09.123456Z")
  static let tsWhole = try! Timestamp(rfc3339: "2024-01-01T00:00:00Z")
  static let tsNanos = try! Timestamp(rfc3339: "2024-05-06T07:08:09.123456789Z")
  static let tsNaive = try! Timestamp(rfc3339: "2024-01-01T00:00:00.5Z")

  static func cases(_ db: Firestore) -> [PipelineCorpusCase] {
    let books = db.pipeline().collection("books")
    let c = db.pipeline().collection("c")
    return sources(db) + filters(books) + stages(db, books) + constants(db, c) + functions(c) + options(books) + queries(db)
  }

  private static func sources(_ db: Firestore) -> [PipelineCorpusCase] {
    [
      .init("src_collection", db.pipeline().collection("books")),
      .init("src_collection_leading_slash", db.pipeline().collection("/books")),
      .init("src_collection_nested_tuple", db.pipeline().collection("users/u1/posts")),
      .init("src_collection_group", db.pipeline().collectionGroup("reviews")),
      .init("src_database", db.pipeline().database()),
      .init(
        "src_documents", db.pipeline().documents([db.document("books/b1"), db.collection("users").document("u1/posts/p9")])),
      .init(
        "src_literals",
        db.pipeline().literals([
          ["name": "joe", "age": 10, "score": 1.5, "ok": true, "none": NSNull()],
          ["x": Constant("foo-bar").charLength(), "f": Field("y"), "nested": ["a": [1, "b"] as [any Sendable]]],
        ])),
    ]
  }

  private static func filters(_ books: Pipeline) -> [PipelineCorpusCase] {
    [
      .init(
        "where_comparisons",
        books.where(Field("a").equal(1)).where(Field("b").notEqual("x")).where(Field("c").greaterThan(2.5))
          .where(Field("d").greaterThanOrEqual(-3)).where(Field("e").lessThan(ts)).where(Field("f").lessThanOrEqual(true))),
      .init(
        "where_logical",
        books.where(
          Field("a").equal(1) && (Field("b").equal(2) || !Field("c").exists())
            && nor(Field("d").isAbsent(), Field("e").equal(Constant.nil)) && (Field("f").equal(1) ^ Field("g").equal(2)))),
      .init("where_static_style", books.where(Field("rating").greaterThan(4.0)).where(Field("year").between(1990, 2000))),
      .init(
        "where_equal_any_lists",
        books.where(Field("genre").equalAny(["a", "b"])).where(Field("g2").notEqualAny(ArrayExpression(["c", Field("x")])))
          .where(Field("tags").arrayContains("t")).where(Field("tags").arrayContainsAll(["t1", "t2"]))
          .where(Field("tags").arrayContainsAny(Constant(["t3", "t4"])))),
      .init(
        "where_string_predicates",
        books.where(
          Field("t").like("%a%") && Field("t").regexContains("a.*") && Field("t").regexMatch("^a$")
            && Field("t").stringContains("x") && Field("t").startsWith("p") && Field("t").endsWith("s")
            && Field("t").isType("string") && Field("u").isType("int64"))),
    ]
  }

  private static func stages(_ db: Firestore, _ books: Pipeline) -> [PipelineCorpusCase] {
    let restaurants = db.pipeline().collection("restaurants")
    return [
      .init(
        "select_mixed",
        books.select([
          Field("title"), Field("author.name"), Field("rating").as("r"), Field("price").multiply(Field("qty")).as("total"),
          Field(FieldPath.documentID()),
        ])),
      .init(
        "add_fields",
        books.addFields([
          Field("rating").as("bookRating"), Constant(5).add(Field("quantity")).as("totalCost"), Field("plain"),
        ])),
      .init("remove_fields", books.removeFields(["rating", "cost", "a.b"])),
      .init("replace_with", db.pipeline().collection("people").replace(with: Field("parents"))),
      .init("replace_with_map_expr", db.pipeline().collection("people").replace(with: MapExpression(["n": Field("name"), "k": 1]))),
      .init("distinct", books.distinct([Field("genre"), Field("author").toUpper().as("authorUpper")])),
      .init(
        "sort_limit_offset",
        books.sort([
          Field("rating").descending(), Field("title").ascending(), Field("year").descending(), Field("__name__").ascending(),
        ]).offset(20).limit(10)),
      .init("sort_by_expression", books.sort([Field("a").add(Field("b")).descending()]).limit(0)),
      .init(
        "aggregate_all_accumulators",
        books.aggregate([
          CountAll().as("cnt_all"), Field("rating").count().as("cnt"), Field("rating").sum().as("s"),
          Field("rating").average().as("avg"), Field("rating").minimum().as("mn"), Field("rating").maximum().as("mx"),
          Field("author").countDistinct().as("cd"), Field("rating").greaterThan(4).countIf().as("ci"),
          Field("t").arrayAgg().as("aa"), Field("t").arrayAggDistinct().as("aad"), Field("t").first().as("fst"),
          Field("t").last().as("lst"), Field("price").average().as("static_avg"),
        ])),
      .init(
        "aggregate_groups",
        books.aggregate(
          [Field("rating").average().as("avg_rating")],
          groups: [Field("genre"), Field("author"), Field("year").divide(10).as("decade")])),
      .init(
        "find_nearest_plain",
        books.findNearest(field: Field("embedding"), vectorValue: VectorValue([0.1, 0.2, 3]), distanceMeasure: .euclidean)),
      .init(
        "find_nearest_options",
        books.findNearest(
          field: Field("embedding"), vectorValue: VectorValue([1.0, 2.0]), distanceMeasure: .cosine, limit: 10,
          distanceField: "distance")),
      .init(
        "find_nearest_dot_str",
        books.findNearest(field: Field("e"), vectorValue: VectorValue([1, 2]), distanceMeasure: .dotProduct, limit: 3)),
      .init("sample_variants", books.sample(count: 10).sample(count: 5).sample(percentage: 0.5).sample(percentage: 1)),
      .init("union", books.union(with: db.pipeline().collection("magazines").where(Field("x").equal(1)))),
      .init(
        "unnest_variants",
        books.unnest(Field("tags").as("tag")).unnest(Field("arr")).unnest(Field("tags2").as("tag2"), indexField: "idx")
          .unnest(Field("m").as("al"))),
      .init(
        "raw_stage",
        books.rawStage(name: "where", params: [Field("published").lessThan(900)])
          .rawStage(
            name: "custom", params: [Constant(1), FirestoreWire.Value.string("s")],
            options: ["opt_a": Constant(true), "opt_b": FirestoreWire.Value.integer(7)])),
      .init("search_string", restaurants.search(query: "waffles OR pancakes")),
      .init(
        "search_options",
        restaurants.search(
          query: DocumentMatches("waffles")
            && Field("location").geoDistance(GeoPoint(latitude: 38.9, longitude: -107.0)).lessThan(1000),
          languageCode: "en-US", retrievalDepth: 100, sort: [Score().descending()], offset: 2, limit: 5,
          addFields: [Score().as("score")])),
      .init(
        "delete", db.pipeline().collection("logs").where(Field("status").equal("archived")).rawStage(name: "delete", params: [])),
      .init(
        "update_in_place",
        books.addFields([Constant("Fiction").as("genre")]).removeFields(["old_genre"])
          .rawStage(name: "update", params: [Constant([String: (any Sendable)?]())])),
      .init(
        "update_fields",
        books.where(Field("price").greaterThan(50)).rawStage(name: "update", params: [Constant(["status": "Discounted"])])),
      .init(
        "define_variables",
        db.pipeline().collection("products")
          .define([Field("price").multiply(0.9).as("discountedPrice"), CurrentDocument().as("doc")])
          .where(Variable("discountedPrice").lessThan(100))
          .select([Field("name"), Variable("doc").getField("title").as("t")])),
      .init(
        "subquery_array_scalar",
        books.define([Field("id").as("book_id")]).addFields([
          db.pipeline().collection("reviews").where(Field("book_id").equal(Variable("book_id")))
            .select([Field("reviewer").as("name")]).toArrayExpression().as("reviewers"),
          Subcollection("ratings").aggregate([Field("rating").average().as("value")]).toScalarExpression().as("avg"),
        ])),
    ]
  }

  private static func constants(_ db: Firestore, _ c: Pipeline) -> [PipelineCorpusCase] {
    [
      .init(
        "constants_all_types",
        c.select([
          Constant(1).as("int"), Constant(-9_007_199_254_740_993).as("bigneg"), Constant(Int.max).as("int64max"),
          Constant(1.0).as("dbl_whole"), Constant(1.5).as("dbl"), Constant(-0.0).as("negzero"), Constant(1e300).as("huge"),
          Constant(Double.nan).as("nan"), Constant(Double.infinity).as("inf"), Constant(-Double.infinity).as("ninf"),
          Constant(true).as("t"), Constant(false).as("f"), Constant.nil.as("null"), Constant("héllo \u{2603}").as("str"),
          Constant("").as("empty"), Constant(Data([0x00, 0xff, 0x61, 0x62])).as("bytes"), Constant(ts).as("ts_micros"),
          Constant(tsWhole).as("ts_whole"), Constant(tsNanos).as("ts_nanos"), Constant(tsNaive).as("ts_naive"),
          Constant(GeoPoint(latitude: 1.5, longitude: -2)).as("geo"), Constant(VectorValue([1, 2.5])).as("vec"),
          Constant(db.document("books/b1")).as("ref"), Constant([1, "a", nil]).as("arr_const"),
          Constant(["k": [1.0], "m": [String: Int]()]).as("map_const"),
        ])),
      .init(
        "implicit_constants_in_functions",
        c.select([
          Field("a").add(1).as("i"), Field("a").add(1.0).as("d"), Field("a").equal([1, 2]).as("list_arg"),
          Field("m").equal(["x": 1]).as("dict_arg"), Field("a").equal(Constant([1, 2])).as("const_list"),
          Field("v").cosineDistance([1, 2]).as("list_as_vector"),
          Field("v").cosineDistance(ArrayExpression([1, Field("z")])).as("mixed_list_array"),
          Field("ts").timestampAdd(1, .day).as("enum_arg"),
        ])),
    ]
  }

  private static func functions(_ c: Pipeline) -> [PipelineCorpusCase] {
    let a = Field("a")
    let x = Field("x")
    let s = Field("s")
    let t = Field("t")
    return [
      .init(
        "fn_arithmetic",
        c.select([
          a.add(Field("b")).as("add"), a.subtract(1).as("sub"), a.multiply(2.5).as("mul"), a.divide(3).as("div"),
          a.mod(4).as("mod"), a.add(5).as("static_add"),
        ])),
      .init(
        "fn_math",
        c.select([
          x.abs().as("abs"), x.ceil().as("ceil"), x.exp().as("exp"), x.floor().as("floor"), x.ln().as("ln"),
          FunctionExpression(functionName: "log", args: [x, Constant(2)]).as("log"),
          FunctionExpression(functionName: "log10", args: [x]).as("log10"), x.pow(2).as("pow"), x.round().as("round"),
          x.sqrt().as("sqrt"), x.trunc().as("trunc"), x.truncToPrecision(2).as("trunc2"),
          x.logicalMaximum([1, Field("y")]).as("lmax"), x.logicalMinimum([0]).as("lmin"), rand().as("rand"),
        ])),
      .init(
        "fn_string",
        c.select([
          s.charLength().as("cl"), s.byteLength().as("bl"), s.stringConcat(["-", t, 1]).as("cat"), s.toLower().as("lo"),
          s.toUpper().as("up"), s.trim().as("tr"), s.ltrim().as("lt"), s.ltrim("x").as("lt2"),
          s.rtrim(Constant(Data("y".utf8))).as("rt2"), s.stringReverse().as("rev"), s.substring(position: 1).as("sub1"),
          s.substring(position: 1, length: 3).as("sub2"), Field("arr").join(delimiter: ",").as("join"),
          s.split(delimiter: " ").as("split"), s.stringRepeat(3).as("rep"), s.stringReplaceAll("a", with: "b").as("ra"),
          s.stringReplaceOne("a", with: "b").as("r1"), s.stringIndexOf("q").as("idx"), s.regexFind("a+").as("rf"),
          s.regexFindAll("a+").as("rfa"), s.concat(["x", [1]]).as("concat"), s.length().as("len"),
        ])),
      .init(
        "fn_array",
        c.select([
          a.arrayLength().as("len"), a.arrayReverse().as("rev"), a.arrayConcat([ArrayExpression([1, 2]), Field("b")]).as("cat"),
          a.arrayGet(0).as("get"), FunctionExpression(functionName: "offset", args: [a, Constant(1)]).as("off"),
          a.arrayFirst().as("f"), a.arrayLast().as("l"), a.arrayFirstN(2).as("fn"), a.arrayLastN(2).as("ln"),
          a.arrayMaximum().as("amax"), a.arrayMinimum().as("amin"), a.arrayMaximumN(2).as("amaxn"),
          a.arrayMinimumN(2).as("aminn"), a.arraySlice(offset: 1).as("sl1"), a.arraySlice(offset: 1, length: 2).as("sl2"),
          a.arrayIndexOf(3).as("io"), a.arrayIndexOfAll(3).as("ioa"), ArrayExpression([1, x]).as("arr_fn"),
        ])),
      .init(
        "fn_array_lambdas",
        c.select([
          a.arrayFilter(alias: "e", filter: Variable("e").greaterThan(1)).as("filt"),
          a.arrayTransform(elementAlias: "e", transform: Variable("e").multiply(2)).as("tx"),
          Field("tags").arrayTransformWithIndex(
            elementAlias: "tag", indexAlias: "i", transform: Variable("tag").stringConcat([Variable("i")] as [FirestoreClient.Expression])
          ).as("tx2"),
        ])),
      .init(
        "fn_map",
        c.select([
          Field("m").mapGet("k").as("get"), Field("m").mapSet("k", 1).as("set"), Field("m").mapRemove("k").as("rm"),
          Field("m").mapMerge([MapExpression(["a": 1]), Field("n")]).as("merge"), Field("m").mapKeys().as("keys"),
          Field("m").mapValues().as("vals"), Field("m").mapEntries().as("ents"),
          MapExpression(["a": 1, "b": x]).as("map_fn"), Field("m").getField("k").as("gf"),
        ])),
      .init(
        "fn_timestamp",
        c.select([
          t.timestampToUnixMicros().as("tum"), t.timestampToUnixMillis().as("tumi"), t.timestampToUnixSeconds().as("tus"),
          Field("n").unixMicrosToTimestamp().as("umt"), Field("n").unixMillisToTimestamp().as("umit"),
          Field("n").unixSecondsToTimestamp().as("ust"), t.timestampAdd(2, .hour).as("tadd"),
          t.timestampSubtract(amount: Field("m"), unit: TimeUnit.minute).as("tsub"),
          t.timestampTruncate(granularity: .weekMonday).as("ttr"),
          t.timestampTruncate(granularity: "day", timezone: "America/New_York").as("ttr2"),
          t.timestampExtract(part: .dayOfWeek).as("tex"), t.timestampExtract(part: "year", timezone: "UTC").as("tex2"),
          t.timestampDiff(Constant(ts), .second).as("tdiff"), CurrentTimestamp().as("now"),
        ])),
      .init(
        "fn_vector_geo",
        c.select([
          Field("v").cosineDistance(VectorValue([1.0, 0.0])).as("cos"), Field("v").euclideanDistance([0.5, 1.5]).as("euc"),
          Field("v").dotProduct(Field("w")).as("dot"), Field("v").vectorLength().as("vl"),
          Field("loc").geoDistance(GeoPoint(latitude: 1.0, longitude: 2.0)).as("gd"),
        ])),
      .init(
        "fn_logic_misc",
        c.select([
          a.ifAbsent(0).as("ia"), a.isError().as("ie"), a.divide(0).ifError(-1).as("ife"),
          a.coalesce([Field("b"), Constant("d")]).as("co"),
          switchOn(a.equal(1), Constant("one"), a.equal(2), Constant("two"), Constant("other")).as("sw"),
          a.ifNull(Field("b")).as("inull"), a.type().as("ty"), FunctionExpression(functionName: "cmp", args: [a, Constant(5)]).as("cmp"),
          FunctionExpression(functionName: "storage_size", args: [a]).as("ss"), Field("__name__").collectionId().as("cid"),
          Field("__name__").documentId().as("did"),
          ConditionalExpression(a.greaterThan(1), then: Constant("big"), else: a).as("cond"), a.exists().as("ex"),
        ])),
    ]
  }

  private static func options(_ books: Pipeline) -> [PipelineCorpusCase] {
    [
      .init("opt_explain", books.limit(1), explainOptions: PipelineExplainOptions()),
      .init(
        "opt_explain_mode_and_additional", books.limit(1), explainOptions: PipelineExplainOptions(mode: .explain),
        additionalOptions: ["index_mode": Constant("recommended"), "custom": FirestoreWire.Value.integer(3)]),
      .init(
        "opt_additional_overrides_explain", books, explainOptions: PipelineExplainOptions(),
        additionalOptions: [
          "explain_options": FirestoreWire.Value.map(["mode": .string("explain"), "output_format": .string("json")])
        ]),
      .init("opt_read_time", books, readTime: ts),
      .init("opt_transaction", books, transaction: Data("txn-123".utf8).base64EncodedString()),
    ]
  }

  private static func queries(_ db: Firestore) -> [PipelineCorpusCase] {
    let books = db.collection("books")
    return [
      .init("query_collection_ref", db.pipeline().create(from: books)),
      .init(
        "query_filters_order_limit",
        db.pipeline().create(
          from: books.whereField("rating", isGreaterThan: 4).whereField("genre", isEqualTo: "sf").whereField("x", isNotEqualTo: 1)
            .whereField("tags", arrayContains: "t").whereField("g", in: ["a", "b"]).whereField("n", isEqualTo: NSNull())
            .whereField("nan", isEqualTo: Double.nan).order(by: "rating", descending: true).order(by: "title").limit(to: 10)
            .offset(5))),
      .init("query_not_in", db.pipeline().create(from: books.whereField("h", notIn: [1, "x"]))),
      .init(
        "query_composite_or",
        db.pipeline().create(
          from: books.whereFilter(
            Filter.orFilter([
              Filter.whereField("a", isEqualTo: 1),
              Filter.andFilter([Filter.whereField("b", isLessThan: 2), Filter.whereField("c", isGreaterThanOrEqualTo: 3)]),
            ])))),
      .init(
        "query_select_cursors",
        db.pipeline().create(
          from: books.select(["title", "year"]).order(by: "year").order(by: "title").start(at: [1990, "A"]).end(before: [2000]))),
      .init("query_limit_to_last", db.pipeline().create(from: books.order(by: "year").limit(toLast: 3))),
      .init(
        "query_collection_group_subcollection",
        db.pipeline().create(from: db.collectionGroup("posts").whereField("author", isEqualTo: db.document("users/u1")))),
      .init(
        "query_subcollection",
        db.pipeline().create(
          from: db.collection("users/u1/posts").order(by: FieldPath.documentID()).start(after: [db.document("users/u1/posts/p1")]))),
      .init("query_aggregation", db.pipeline().create(from: books.whereField("a", isEqualTo: 1).count)),
      .init(
        "query_aggregation_multi", db.pipeline().create(from: books.aggregate([.count(), .sum("price"), .average("rating")]))),
    ]
  }
}
