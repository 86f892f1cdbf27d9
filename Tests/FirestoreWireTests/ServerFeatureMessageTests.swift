import FirestoreEngine
import Foundation
import Testing

@testable import FirestoreWire

/// The wire forms of vectors, `findNearest`, explain metrics, `partitionQuery` and bundles.
@Suite("Messages: vectors, findNearest, explain, partitions, bundles")
struct ServerFeatureMessageTests {
  let root = "projects/p/databases/(default)/documents"

  @Test("a vector is the tagged map; only a well-formed one has doubles")
  func vectors() {
    let v = Value.vector([1, 2.5])
    #expect(v == .map(["__type__": .string("__vector__"), "value": .array([.double(1), .double(2.5)])]))
    #expect(v.isVector && v.vectorDoubles == [1, 2.5])
    #expect(Value.map(["__type__": .string("__vector__")]).vectorElements == [])
    #expect(Value.map(["__type__": .string("__vector__"), "value": .array([.integer(1)])]).vectorDoubles == nil)
    #expect(Value.map(["__type__": .string("__vector__"), "value": .array([]), "x": .null]).vectorDoubles == nil)
    #expect(Value.map(["value": .array([.double(1)])]).isVector == false)
    // Vectors sort after arrays, before maps; shorter first, then element by element.
    #expect(ValueOrdering.compare(.array([.double(9)]), v) < 0 && ValueOrdering.compare(v, .map([:])) < 0)
    #expect(ValueOrdering.compare(.vector([9]), .vector([1, 1])) < 0)
    #expect(ValueOrdering.compare(.vector([1, 2]), .vector([1, 3])) < 0)
  }

  @Test("extended JSON spells a vector {\"$vector\":[…]} and reads it back; a map holding that key alone is escaped")
  func extendedJSON() throws {
    func text(_ value: Value) -> String { JSONWriter.string(ExtendedJSON.encode(value, documentsRoot: root)) }
    func decode(_ text: String) throws -> Value { try ExtendedJSON.decode(JSONParser.parse(text), documentsRoot: root) }
    #expect(text(.vector([1, 2.5])) == #"{"$vector":[1.0,2.5]}"#)
    #expect(text(.vector([.infinity])) == #"{"$vector":[{"$double":"Infinity"}]}"#)
    #expect(try decode(#"{"$vector":[1,2.5]}"#) == .vector([1, 2.5]))
    #expect(try decode(text(.vector([-0.5, 1e300]))) == .vector([-0.5, 1e300]))
    #expect(text(.map(["$vector": .integer(1)])) == #"{"$map":{"$vector":1}}"#)
    #expect(try decode(#"{"$map":{"$vector":1}}"#) == .map(["$vector": .integer(1)]))
    for bad in [#"{"$vector":[]}"#, #"{"$vector":["a"]}"#, #"{"$vector":1}"#, #"{"$vector":[[1]]}"#] {
      #expect(throws: WireFormatError.self, "\(bad)") { try decode(bad) }
    }
  }

  @Test("findNearest: its JSON as the emulator takes it, and back")
  func findNearestJSON() throws {
    let search = StructuredQuery.FindNearest(
      vectorField: "emb", queryVector: .vector([2.2, 1]), distanceMeasure: .dotProduct, limit: 3, distanceResultField: "d",
      distanceThreshold: 0.5)
    let text = JSONWriter.string(search.json)
    #expect(
      text
        == #"{"vectorField":{"fieldPath":"emb"},"queryVector":{"mapValue":{"fields":{"__type__":{"stringValue":"__vector__"},"value":{"arrayValue":{"values":[{"doubleValue":2.2},{"doubleValue":1.0}]}}}}},"distanceMeasure":"DOT_PRODUCT","limit":3,"distanceResultField":"d","distanceThreshold":0.5}"#
    )
    #expect(try StructuredQuery.FindNearest(json: search.json) == search)
    var query = StructuredQuery(from: [.init(collectionID: "c")])
    query.findNearest = search
    #expect(try StructuredQuery(json: query.json) == query)
    // A missing measure reads as unspecified (the server refuses it); an unknown one and the
    // wrapper form of the limit are malformed, as on the emulator.
    let bare = try StructuredQuery.FindNearest(
      json: JSONParser.parse(#"{"vectorField":{"fieldPath":"e"},"queryVector":{"nullValue":null}}"#))
    #expect(bare.distanceMeasure == .unspecified && bare.limit == nil)
    #expect(throws: WireFormatError.self) {
      try StructuredQuery.FindNearest(
        json: JSONParser.parse(#"{"vectorField":{"fieldPath":"e"},"queryVector":{"nullValue":null},"distanceMeasure":"MANHATTAN"}"#))
    }
    #expect(throws: WireFormatError.self) {
      try StructuredQuery.FindNearest(
        json: JSONParser.parse(#"{"vectorField":{"fieldPath":"e"},"queryVector":{"nullValue":null},"limit":{"value":1}}"#))
    }
  }

  @Test("nearest-neighbour evaluation: distances, NaN last, thresholds, dimensions")
  func nearest() {
    #expect(QueryEvaluator.distance([0, 0], [3, 4], .euclidean) == 5)
    #expect(QueryEvaluator.distance([1, 2], [3, 4], .dotProduct) == 11)
    #expect(abs(QueryEvaluator.distance([1, 0], [0, 1], .cosine) - 1) < 1e-15)
    #expect(QueryEvaluator.distance([0, 0], [1, 1], .cosine).isNaN)
    let docs =
      [("a", [0.0, 0]), ("b", [1.0, 0]), ("c", [5.0, 5]), ("d", [1.0, 0])].map {
        Document(name: "\(root)/v/\($0.0)", fields: ["e": .vector($0.1)])
      } + [Document(name: "\(root)/v/wide", fields: ["e": .vector([1, 1, 1])])]
    func run(_ measure: StructuredQuery.FindNearest.DistanceMeasure, limit: Int32 = 10, threshold: Double? = nil) -> [String] {
      var query = StructuredQuery(from: [.init(collectionID: "v")])
      query.findNearest = .init(
        vectorField: "e", queryVector: .vector([1, 1]), distanceMeasure: measure, limit: limit, distanceThreshold: threshold)
      return QueryEvaluator.evaluate(query, over: docs.reversed()).map { String($0.name.split(separator: "/").last!) }
    }
    // Equal distances in name order; the zero vector's NaN cosine last.
    #expect(run(.euclidean) == ["b", "d", "a", "c"])
    #expect(run(.cosine) == ["c", "b", "d", "a"])
    #expect(run(.dotProduct) == ["c", "b", "d", "a"])
    #expect(run(.euclidean, limit: 1) == ["b"])
    #expect(run(.euclidean, threshold: 1.0) == ["b", "d"])
    #expect(run(.dotProduct, threshold: 1.0) == ["c", "b", "d"])
    #expect(run(.cosine, threshold: 2) == ["c", "b", "d"])
  }

  @Test("explain metrics: production's documented shape reads, and writes back the same")
  func explainMetrics() throws {
    let json = try JSONParser.parse(
      #"{"planSummary":{"indexesUsed":[{"query_scope":"Collection","properties":"(foo ASC, __name__ ASC)"}]},"executionStats":{"resultsReturned":"5","executionDuration":"0.012345s","readOperations":"5","debugStats":{"index_entries_scanned":"1000","documents_scanned":"20","billing_details":{"documents_billable":"20"}}}}"#
    )
    let report = try ExplainReport(json: json)
    #expect(report.indexesUsed.count == 1)
    #expect(report.execution?.resultsReturned == 5 && report.execution?.readOperations == 5)
    #expect(report.execution?.executionSeconds == 0.012345)
    #expect(report.execution?.debugStats["documents_scanned"] == .string("20"))
    #expect(report.json == json)
    #expect(try ExplainReport(json: JSONParser.parse(#"{"planSummary":{}}"#)) == ExplainReport(indexesUsed: []))
    #expect(
      ExplainReport.duration(1.5) == "1.5s" && ExplainReport.duration(2) == "2s" && ExplainReport.duration(0.000000001) == "0.000000001s")
    #expect(throws: WireFormatError.self) { try ExplainReport(json: JSONParser.parse(#"{"executionStats":{"executionDuration":"5m"}}"#)) }
    let request = RunQueryRequest(structuredQuery: StructuredQuery(from: []), explainOptions: ExplainRequestOptions(analyze: true))
    #expect(JSONWriter.string(request.json) == #"{"structuredQuery":{"from":[]},"explainOptions":{"analyze":true}}"#)
    #expect(try RunQueryRequest(json: request.json) == request)
  }

  @Test("partitionQuery: request and page JSON")
  func partitionMessages() throws {
    let request = PartitionQueryRequest(
      structuredQuery: StructuredQuery(
        from: [.init(collectionID: "g", allDescendants: true)], orderBy: [.init(fieldPath: "__name__", descending: false)]),
      partitionCount: 7, pageToken: "t", pageSize: 2)
    #expect(try PartitionQueryRequest(json: request.json) == request)
    #expect(request.json["partitionCount"] == .string("7"))
    let page = try PartitionQueryResponse(
      json: JSONParser.parse(#"{"partitions":[{"values":[{"referenceValue":"\#(root)/g/a"}]}],"nextPageToken":"n"}"#))
    #expect(page.partitions == [.init(values: [.reference("\(root)/g/a")], before: false)])
    #expect(page.nextPageToken == "n")
    #expect(try PartitionQueryResponse(json: .object([])) == PartitionQueryResponse(partitions: [], nextPageToken: nil))
  }

  @Test("bundles: elements are length-prefixed JSON; what other writers spell differently reads too")
  func bundles() throws {
    let time = Timestamp(seconds: 1_700_000_000, nanoseconds: 5000)
    let query = NamedQuery(
      name: "q", parent: root, structuredQuery: StructuredQuery(from: [.init(collectionID: "c")], limit: 2), limitType: .last,
      readTime: time)
    let document = Document(name: "\(root)/c/d", fields: ["v": .vector([1])], createTime: time, updateTime: time)
    let elements: [BundleElement] = [
      .metadata(BundleMetadata(id: "b", createTime: time, totalDocuments: 1, totalBytes: 99)),
      .namedQuery(query),
      .documentMetadata(BundledDocumentMetadata(name: document.name, readTime: time, exists: true, queries: ["q"])),
      .document(document),
    ]
    let bytes = elements.flatMap(\.lengthPrefixed)
    let first = elements[0].lengthPrefixed
    let json = JSONWriter.bytes(elements[0].json)
    #expect(first == Array(String(json.count).utf8) + json)
    var reader = BundleReader(bytes)
    var read: [BundleElement] = []
    var sizes = 0
    while let (element, size) = try reader.next() {
      read.append(element)
      sizes += size
    }
    #expect(read == elements && sizes == bytes.count)

    // Timestamps as {seconds, nanos} and counts as numbers (as the Node SDK writes them).
    let node = try BundleElement(
      json: JSONParser.parse(
        #"{"metadata":{"id":"n","createTime":{"seconds":"1700000000","nanos":5000},"version":1,"totalDocuments":3,"totalBytes":1234}}"#))
    #expect(node == .metadata(BundleMetadata(id: "n", createTime: time, totalDocuments: 3, totalBytes: 1234)))

    // A document and a query as the Node SDK writes its protobuf objects: {seconds, nanos}
    // times, numbers, `valueType` members, the Int32Value wrapper of a limit.
    let nodeDocument = try BundleElement(
      json: JSONParser.parse(
        #"{"document":{"name":"\#(root)/c/d","fields":{"t":{"valueType":"timestampValue","timestampValue":{"seconds":"5","nanos":6}},"valueType":{"valueType":"mapValue","mapValue":{"fields":{"n":{"integerValue":7}}}},"a":{"arrayValue":{"values":[{"valueType":"stringValue","stringValue":"x"}]}}},"createTime":{"seconds":1,"nanos":0},"updateTime":"1970-01-01T00:00:02Z"}}"#
      ))
    #expect(
      nodeDocument
        == .document(
          Document(
            name: "\(root)/c/d",
            fields: [
              "t": .timestamp(Timestamp(seconds: 5, nanoseconds: 6)), "valueType": .map(["n": .integer(7)]), "a": .array([.string("x")]),
            ], createTime: Timestamp(seconds: 1, nanoseconds: 0), updateTime: Timestamp(seconds: 2, nanoseconds: 0))))
    let nodeQuery = try BundleElement(
      json: JSONParser.parse(
        #"{"namedQuery":{"name":"q","readTime":{"seconds":"1","nanos":0},"bundledQuery":{"parent":"\#(root)","structuredQuery":{"from":[{"collectionId":"c"}],"where":{"compositeFilter":{"op":"AND","filters":[{"fieldFilter":{"field":{"fieldPath":"t"},"op":"LESS_THAN","value":{"valueType":"timestampValue","timestampValue":{"seconds":9,"nanos":0}}}}]}},"orderBy":[{"field":{"fieldPath":"t"}}],"startAt":{"values":[{"valueType":"integerValue","integerValue":"1"}],"before":true},"limit":{"value":3}}}}}"#
      ))
    guard case .namedQuery(let named) = nodeQuery else {
      Issue.record("not a named query: \(nodeQuery)")
      return
    }
    #expect(named.limitType == .first && named.structuredQuery.limit == 3)
    #expect(named.structuredQuery.startAt?.values == [.integer(1)])
    #expect(
      named.structuredQuery.filter
        == .composite(op: .and, filters: [.field(path: "t", op: .lessThan, value: .timestamp(Timestamp(seconds: 9, nanoseconds: 0)))]))

    let malformed: [(String, String)] = [
      ("12", "ends after a length prefix"),
      ("5{}", "truncated"),
      ("{}", "no length prefix"),
      ("-2{}", "decimal length"),
      ("2{]", "not valid JSON"),
      ("2{}", "exactly one member"),
      (#"11{"other":1}"#, "unknown bundle element"),
      ("99999999999999999999{}", "decimal length"),
    ]
    for (text, message) in malformed {
      var broken = BundleReader(Array(text.utf8))
      let error = #expect(throws: WireFormatError.self) { _ = try broken.next() }
      #expect(error.map { "\($0)".contains(message) } == true, "\(text): \(String(describing: error))")
    }
    var empty = BundleReader([])
    #expect(try empty.next() == nil)
  }
}
