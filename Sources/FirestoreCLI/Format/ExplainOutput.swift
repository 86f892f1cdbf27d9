import FirestoreClient
import FirestoreWire
import Foundation

/// `--explain`'s output: ``ExplainMetrics`` as JSON, names as the REST API spells them.
enum ExplainOutput {
  /// `{"indexesUsed":[…],"executionStats":{"resultsReturned":N,"readOperations":N,"executionDuration":"0.01s","debugStats":{…}}}`.
  static func json(_ metrics: ExplainMetrics) -> JSONValue {
    var members: [(String, JSONValue)] = [("indexesUsed", .array(metrics.planSummary.indexesUsed.map { object($0) }))]
    if let stats = metrics.executionStats {
      let seconds = Double(stats.executionDuration.components.seconds) + Double(stats.executionDuration.components.attoseconds) / 1e18
      members.append(
        (
          "executionStats",
          .object([
            ("resultsReturned", .integer(Int64(stats.resultsReturned))), ("readOperations", .integer(Int64(stats.readOperations))),
            ("executionDuration", .string(ExplainReport.duration(seconds))), ("debugStats", object(stats.debugStats)),
          ])
        ))
    }
    return .object(members)
  }

  /// A dictionary of plain values (as ``ExplainMetrics`` holds Firestore's free-form
  /// reports) as a JSON object, keys sorted.
  private static func object(_ dictionary: [String: any Sendable]) -> JSONValue {
    .object(dictionary.sorted { $0.key < $1.key }.map { ($0.key, value($0.value)) })
  }

  private static func value(_ value: any Sendable) -> JSONValue {
    switch value {
    case let b as Bool: return .bool(b)
    case let i as Int: return .integer(Int64(i))
    case let d as Double: return .number(d.description)
    case let s as String: return .string(s)
    case let a as [any Sendable]: return .array(a.map { self.value($0) })
    case let d as [String: any Sendable]: return object(d)
    default: return .null
    }
  }
}
