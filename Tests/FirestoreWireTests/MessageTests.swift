import Testing

@testable import FirestoreWire

@Suite("REST messages")
struct MessageTests {
  @Test("a structured query writes and reads back")
  func structuredQuery() throws {
    let query = StructuredQuery(
      select: ["__name__"], from: [.init(collectionID: "cities", allDescendants: true)],
      filter: .composite(op: .or, filters: [.field(path: "pop", op: .in, value: .array([.integer(1)])), .unary(path: "x", op: .isNull)]),
      orderBy: [.init(fieldPath: "pop", descending: true)], startAt: .init(values: [.integer(1)], before: true),
      endAt: .init(values: [.integer(9)], before: false), offset: 2, limit: 5)
    let text = JSONWriter.string(query.json)
    #expect(text.contains(#""limit":5"#))
    #expect(try StructuredQuery(json: JSONParser.parse(text)) == query)
  }

  @Test("writes with masks, transforms and preconditions write and read back")
  func writes() throws {
    let write = Write(
      operation: .update(Document(name: "projects/p/databases/d/documents/a/b", fields: ["x": .integer(1)])), updateMask: ["x", "`a-b`"],
      updateTransforms: [
        .init(fieldPath: "ts", kind: .serverTimestamp), .init(fieldPath: "n", kind: .increment(.integer(2))),
        .init(fieldPath: "arr", kind: .appendMissingElements([.string("a")])), .init(fieldPath: "m", kind: .maximum(.double(1))),
      ], currentDocument: .exists(true))
    let request = CommitRequest(writes: [write, Write(operation: .delete("projects/p/databases/d/documents/a/c"))], transaction: "abc")
    #expect(try CommitRequest(json: JSONParser.parse(JSONWriter.string(request.json))) == request)
  }

  @Test("batchGet elements: found, missing, transaction")
  func batchGetElements() throws {
    let json = try JSONParser.parse(
      #"[{"transaction":"EQ"},{"found":{"name":"n1","createTime":"2024-01-01T00:00:00Z","updateTime":"2024-01-01T00:00:00Z"},"readTime":"2024-01-01T00:00:00Z"},{"missing":"n2","readTime":"2024-01-01T00:00:00Z"}]"#
    )
    let elements = try #require(json.arrayValue).map(BatchGetResponse.init(json:))
    #expect(elements[0].result == .transaction("EQ"))
    #expect(
      elements[1].result
        == .found(
          Document(
            name: "n1", createTime: Timestamp(seconds: 1_704_067_200, nanoseconds: 0),
            updateTime: Timestamp(seconds: 1_704_067_200, nanoseconds: 0))))
    #expect(elements[2].result == .missing("n2"))
  }

  @Test("error bodies, including escaped slashes")
  func errorBody() throws {
    let body = try ErrorBody(json: JSONParser.parse(#"{"error":{"code":404,"message":"Document (a\/b) not found.","status":"NOT_FOUND"}}"#))
    #expect(body == ErrorBody(code: 404, message: "Document (a/b) not found.", status: "NOT_FOUND"))
  }
}
