import FirestoreEngine
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreMock

/// The mock's `partitionQuery` and `explainOptions`, which the emulator does not
/// implement: what production documents, checked at the REST level.
@Suite("Mock: partitionQuery and explain")
struct ServerFeatureTests {
  private static let root = "projects/mocktest/databases/(default)/documents"

  private func query(_ group: String, _ extra: String = "") -> String {
    #"{"from":[{"collectionId":"\#(group)","allDescendants":true}],"orderBy":[{"field":{"fieldPath":"__name__"},"direction":"ASCENDING"}]\#(extra)}"#
  }

  @Test("split points: evenly spaced document names in order, never more than the documents allow")
  func splitPoints() {
    let names = (0..<10).map { "\(Self.root)/g/d\($0)" }.shuffled()
    #expect(PartitionRules.splitPoints(of: names, count: 4) == ["d2", "d4", "d6", "d8"].map { "\(Self.root)/g/\($0)" })
    #expect(PartitionRules.splitPoints(of: names, count: 1) == ["\(Self.root)/g/d5"])
    #expect(PartitionRules.splitPoints(of: names, count: 50).count == 9)
    #expect(PartitionRules.splitPoints(of: Array(names.prefix(1)), count: 3).isEmpty)
    #expect(PartitionRules.splitPoints(of: [], count: 3).isEmpty)
  }

  @Test("partitionQuery: the documented query shape only, a positive count, the database root; pages by pageSize")
  func partitionQuery() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let rest = REST(server: server)
    for i in 0..<10 {
      let parent = i < 5 ? "" : "p/x\(i)/"
      _ = try await rest.call("PATCH", "/\(parent)g/d\(i)", #"{"fields":{}}"#)
    }
    let refused: [(String, String)] = [
      (#"{"structuredQuery":\#(query("g")),"partitionCount":"0"}"#, "partition_count must be positive"),
      (
        #"{"structuredQuery":{"from":[{"collectionId":"g"}],"orderBy":[{"field":{"fieldPath":"__name__"}}]},"partitionCount":"2"}"#,
        "collection group"
      ),
      (#"{"structuredQuery":{"from":[{"collectionId":"g","allDescendants":true}]},"partitionCount":"2"}"#, "ordered by __name__"),
      (#"{"structuredQuery":\#(query("g", #","limit":3"#)),"partitionCount":"2"}"#, "no filters"),
      (
        #"{"structuredQuery":\#(query("g", #","where":{"fieldFilter":{"field":{"fieldPath":"a"},"op":"EQUAL","value":{"integerValue":"1"}}}"#)),"partitionCount":"2"}"#,
        "no filters"
      ),
    ]
    for (body, message) in refused {
      let (status, json) = try await rest.call("POST", ":partitionQuery", body)
      #expect(status == 400 && json?["error"]?["message"]?.stringValue?.contains(message) == true, "\(body): \(String(describing: json))")
    }
    let (documentParent, _) = try await rest.call(
      "POST", "/p/x5:partitionQuery", #"{"structuredQuery":\#(query("g")),"partitionCount":"2"}"#)
    #expect(documentParent == 400)

    var points: [String] = []
    var token: String?
    var pages = 0
    repeat {
      let tokenMember = token.map { #","pageToken":"\#($0)""# } ?? ""
      let (status, json) = try await rest.call(
        "POST", ":partitionQuery", #"{"structuredQuery":\#(query("g")),"partitionCount":"3","pageSize":2\#(tokenMember)}"#)
      #expect(status == 200)
      let body = try #require(json)
      let page = try PartitionQueryResponse(json: body)
      #expect(page.partitions.count <= 2)
      points += page.partitions.compactMap { cursor in
        guard case .reference(let name)? = cursor.values.first else { return nil }
        return name
      }
      token = page.nextPageToken
      pages += 1
    } while token != nil
    #expect(pages == 2)
    #expect(points.count == 3)
    #expect(points == points.sorted { ValueOrdering.compareResourceNames($0, $1) < 0 })
  }

  @Test("explainOptions: planned only, one element with the plan; analyzed, the results with the metrics on the last")
  func explain() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let rest = REST(server: server)
    for i in 0..<3 { _ = try await rest.call("PATCH", "/e/d\(i)", #"{"fields":{"n":{"integerValue":"\#(i)"}}}"#) }
    let structured =
      #"{"from":[{"collectionId":"e"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"GREATER_THAN","value":{"integerValue":"0"}}}}"#
    let (_, planned) = try await rest.call("POST", ":runQuery", #"{"structuredQuery":\#(structured),"explainOptions":{}}"#)
    let plan = try #require(planned?.arrayValue)
    #expect(plan.count == 1 && plan[0]["document"] == nil)
    let planJSON = try #require(plan[0]["explainMetrics"])
    let report = try ExplainReport(json: planJSON)
    #expect(report.execution == nil)
    #expect(report.indexesUsed == [.object([("query_scope", .string("Collection")), ("properties", .string("(n ASC, __name__ ASC)"))])])

    let (_, analyzed) = try await rest.call("POST", ":runQuery", #"{"structuredQuery":\#(structured),"explainOptions":{"analyze":true}}"#)
    let elements = try #require(analyzed?.arrayValue)
    #expect(elements.compactMap { $0["document"] }.count == 2)
    #expect(elements.dropLast().allSatisfy { $0["explainMetrics"] == nil })
    let metricsJSON = try #require(elements.last?["explainMetrics"])
    let stats = try #require(try ExplainReport(json: metricsJSON).execution)
    #expect(stats.resultsReturned == 2 && stats.readOperations == 2)
    #expect(stats.debugStats["documents_scanned"] == .string("3"))
    // The statistics' JSON spells counts as strings and the duration as seconds with an "s".
    let json = try #require(elements.last?["explainMetrics"]?["executionStats"])
    #expect(json["resultsReturned"] == .string("2"))
    #expect(json["executionDuration"]?.stringValue?.hasSuffix("s") == true)

    let aggregation =
      #"{"structuredAggregationQuery":{"structuredQuery":{"from":[{"collectionId":"e"}]},"aggregations":[{"alias":"c","count":{}}]},"explainOptions":{"analyze":true}}"#
    let (_, counted) = try await rest.call("POST", ":runAggregationQuery", aggregation)
    let last = try #require(counted?.arrayValue?.last)
    #expect(last["result"]?["aggregateFields"]?["c"] == .object([("integerValue", .string("3"))]))
    let countMetrics = try #require(last["explainMetrics"])
    #expect(try ExplainReport(json: countMetrics).execution?.resultsReturned == 1)
  }
}
