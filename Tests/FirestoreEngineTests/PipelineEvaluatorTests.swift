import FirestoreEngine
import FirestoreWire
import Testing

@Suite("Pipeline evaluator")
struct PipelineEvaluatorTests {
  private let row = Document(
    name: "projects/p/databases/(default)/documents/c/d",
    fields: ["i": .integer(7), "big": .integer(.max), "s": .string("a_b%c"), "m": .map(["x": .integer(1)])])

  private func eval(_ name: String, _ args: PipelineExpression...) -> PipelineEvaluation {
    PipelineExpressionEvaluator(row: row).evaluate(.function(PipelineFunction(name: name, args: args)))
  }

  private func int(_ i: Int64) -> PipelineExpression { .constant(.integer(i)) }
  private func str(_ s: String) -> PipelineExpression { .constant(.string(s)) }

  @Test("fields, nested fields and the document name; a missing field is absent")
  func fields() {
    let evaluator = PipelineExpressionEvaluator(row: row)
    #expect(evaluator.evaluate(.field("m.x")) == .value(.integer(1)))
    #expect(evaluator.evaluate(.field("__name__")) == .value(.reference(row.name)))
    #expect(evaluator.evaluate(.field("nope")) == .absent)
    #expect(evaluator.evaluate(.field("m.x.y")) == .absent)
  }

  @Test("integer arithmetic: overflow and division by zero are errors; mod keeps the dividend's sign")
  func arithmetic() {
    #expect(eval("add", .field("big"), int(1)) == .error("integer overflow in add"))
    #expect(eval("divide", int(-7), int(2)) == .value(.integer(-3)))
    #expect(eval("mod", int(-7), int(3)) == .value(.integer(-1)))
    #expect(eval("mod", int(.min), int(-1)) == .value(.integer(0)))
    if case .error = eval("mod", int(1), int(0)) {} else { Issue.record("mod by zero must fail") }
    #expect(eval("abs", int(.min)) == .error("integer overflow in abs"))
    if case .value(.double(let d)) = eval("mod", .constant(.double(1)), .constant(.double(0))) {
      #expect(d.isNaN)
    } else {
      Issue.record("a double mod by zero is NaN")
    }
    if case .error = eval("add", str("a"), int(1)) {} else { Issue.record("a string is not a number") }
  }

  @Test("LIKE: % and _ match code points; a backslash makes them literal")
  func like() {
    #expect(eval("like", .field("s"), str("a\\_b\\%c")) == .value(.boolean(true)))
    #expect(eval("like", .field("s"), str("a_b_c")) == .value(.boolean(true)))
    #expect(eval("like", .field("s"), str("a\\_b\\%")) == .value(.boolean(false)))
    #expect(eval("like", str("🌍x"), str("_x")) == .value(.boolean(true)))
    #expect(eval("like", str(""), str("%")) == .value(.boolean(true)))
    #expect(eval("like", str("abc"), str("%%%d")) == .value(.boolean(false)))
  }

  @Test("substring counts code points from either end")
  func substring() {
    #expect(eval("substring", str("h🌍llo"), int(1), int(2)) == .value(.string("🌍l")))
    #expect(eval("substring", str("hello"), int(-3)) == .value(.string("llo")))
    #expect(eval("substring", str("hello"), int(-30)) == .value(.string("hello")))
    #expect(eval("substring", str("hello"), int(9)) == .value(.string("")))
    if case .error = eval("substring", str("hello"), int(1), int(-1)) {} else { Issue.record("a negative length fails") }
  }

  @Test("sum stays an integer until it overflows, then is a double")
  func sumOverflow() throws {
    let rows = [Int64.max, 1].map { Document(name: "", fields: ["v": .integer($0)]) }
    let stages = [
      PipelineStage(name: "database"),
      PipelineStage(
        name: "aggregate",
        args: [
          .map(["s": .function(PipelineFunction(name: "sum", args: [.field("v")]))]), .constant(.map([:])),
        ]),
    ]
    let out = try PipelineEvaluator.run(stages, over: rows)
    #expect(out.map(\.fields) == [["s": .double(Double(Int64.max) + 1)]])
  }

  @Test("what the evaluator does not run is refused before any row, naming it")
  func refusals() {
    let cases: [(PipelineStage, RPCCode, String)] = [
      (PipelineStage(name: "unnest", args: [.field("a"), .field("b")]), .unimplemented, "unnest"),
      (PipelineStage(name: "where", args: [.function(PipelineFunction(name: "regex_match"))]), .unimplemented, "regex_match"),
      (PipelineStage(name: "where", args: [.function(PipelineFunction(name: "equal", args: [.field("a")]))]), .invalidArgument, "equal"),
      (PipelineStage(name: "limit", args: [int(-1)]), .invalidArgument, "limit"),
      (PipelineStage(name: "where", args: [.variable("x")]), .unimplemented, "x"),
      (
        PipelineStage(
          name: "aggregate", args: [.map(["a": .function(PipelineFunction(name: "array_agg", args: [.field("a")]))]), .map([:])]),
        .unimplemented, "array_agg"
      ),
    ]
    for (stage, code, name) in cases {
      do {
        _ = try PipelineEvaluator.run([PipelineStage(name: "database"), stage], over: [])
        Issue.record("\(stage.name) ran")
      } catch {
        #expect(error.code == code && error.message.contains(name), "\(error)")
      }
    }
  }

  @Test("the source stage's arguments are checked as the official clients send them")
  func inputs() throws {
    #expect(
      try PipelineInput.of([PipelineStage(name: "collection", args: [.constant(.reference("/a/b/c"))])])
        == .collection(parent: "a/b", collectionID: "c"))
    #expect(try PipelineInput.of([PipelineStage(name: "documents", args: [.constant(.reference("/a/b"))])]) == .documents(["a/b"]))
    for bad in [
      PipelineStage(name: "collection", args: [.constant(.reference("/a/b"))]),
      PipelineStage(name: "collection", args: [.constant(.string("a"))]),
      PipelineStage(name: "documents", args: [.constant(.reference("/a"))]),
      PipelineStage(name: "where", args: []),
      PipelineStage(name: "collection_group", args: [.constant(.reference("")), .constant(.string("a/b"))]),
      PipelineStage(name: "literals", args: [.map(["x": .function(PipelineFunction(name: "char_length"))])]),
    ] {
      #expect(throws: PipelineEvaluationError.self, "\(bad)") { try PipelineInput.of([bad]) }
    }
  }
}
