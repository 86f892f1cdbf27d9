import Foundation
import Testing

@testable import FirestoreClient

/// Code written against the Apple SDK's pipeline API compiles here unchanged: each case
/// below is spelled as that API spells it (arrays for stages, `Field`, `Constant`,
/// `.as(_:)`, the operators), and each pipeline builds a request.
@Suite("Pipelines as the Apple SDK spells them")
struct ApplePipelineSpellingTests {
  let db = Offline.noNetwork().0

  private func pipelines() -> [Pipeline] {
    let books = db.pipeline().collection("books")
    let reviews = db.pipeline().collection("reviews")
      .where(Field("bookTitle").equal(Variable("t")))
      .select([Field("reviewer").as("reviewer")])
    return [
      books.where(Field("rating").greaterThan(4.5) && Field("genre").equal("Fantasy"))
        .sort([Field("rating").descending(), Field("title").ascending()]).limit(5),
      books.where(Field("rating").greaterThan(4.0) && Field("genre").equal("Science Fiction") || Field("tags").arrayContains("comedy")),
      db.pipeline().collection("items")
        .select([Field("name"), Field("price").multiply(Field("qty")).as("total")])
        .addFields([Field("name").toUpper().as("upperName")])
        .removeFields(["internalNotes"]),
      db.pipeline().collectionGroup("orders").aggregate(
        [Field("amount").sum().as("revenue"), CountAll().as("n"), Field("status").equal("late").countIf().as("lateCount")],
        groups: [Field("region")]),
      db.pipeline().collection("docs").findNearest(
        field: Field("embedding"), vectorValue: VectorValue([0.1, 0.2, 0.3]), distanceMeasure: .cosine, limit: 10,
        distanceField: "dist"),
      books.select([
        ConditionalExpression(Field("year").lessThan(1960), then: Constant("classic"), else: Constant("modern")).as("era"),
        MapExpression(["a": 1]).mapSet("b", 2).as("m"),
      ]),
      books.unnest(Field("tags").as("tag"), indexField: "i"),
      db.pipeline().create(from: db.collection("cities").whereField("pop", isGreaterThan: 1000).limit(to: 3)),
      db.pipeline().collection("a").union(with: db.pipeline().collection("b")).sample(count: 5),
      books.distinct([Field("author").toLower().as("a")]),
      books.define([Field("title").as("t")]).addFields([reviews.toArrayExpression().as("reviewers")]),
      books.addFields([Subcollection("reviews").select(["stars"]).toArrayExpression().as("r")]),
      db.pipeline().collection("events")
        .select([
          Field("ts").timestampAdd(10, .day).as("later"), Field("ts").timestampTruncate(granularity: .month).as("month"),
          CurrentTimestamp().as("now"),
        ])
        .rawStage(name: "where", params: [Field("year").lessThan(1900)]),
      db.pipeline().collection("restaurants").search(query: "waffles -diner", limit: 20, addFields: [Score().as("score")]),
      db.pipeline().documents([db.collection("foo").document("bar"), db.document("foo/baz")]),
      books.where(!Field("a").exists() ^ Field("b").isAbsent()).where(nor(Field("c").equal(1), Field("d").equal(2))),
      books.select([
        switchOn(Field("a").equal(1), Constant("one"), Constant("other")).as("s"), rand().as("r"),
        Field("price").between(10, 20).as("mid"), Field("name").stringConcat([" ", Field("surname")]).as("full"),
        Field("tags").arrayContainsAny(["a", "b"]).as("any"), Field("v").cosineDistance([1.0, 0.0]).as("cos"),
        Field("loc").geoDistance(GeoPoint(latitude: 1, longitude: 2)).as("far"),
        FunctionExpression(functionName: "add", args: [Field("x"), Constant(1)]).as("generic"),
        Field(FieldPath.documentID()).documentId().as("id"), Constant.nil.as("none"),
      ]),
      books.sample(percentage: 0.5).offset(10).replace(with: "details"),
    ]
  }

  @Test("each pipeline builds its request")
  func build() throws {
    for pipeline in pipelines() {
      let request = try pipeline.request(firestore: db)
      #expect(!request.stages.isEmpty)
    }
  }

  @Test("results read as the Apple SDK reads them")
  func results() {
    let result = PipelineResult(
      document: .init(
        name: "projects/p/databases/(default)/documents/books/b1", fields: ["title": .string("Dune"), "n": .integer(3)]),
      firestore: db)
    let title: Sendable? = result.get("title")
    let data: [String: Sendable?] = result.data
    #expect(title as? String == "Dune")
    #expect(data["n"] as? Int == 3)
    #expect(result.ref?.documentID == result.id)
  }
}
