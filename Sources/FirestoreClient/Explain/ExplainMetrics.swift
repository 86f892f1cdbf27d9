import FirestoreWire
import Foundation

/// Firestore's explanation of a query: its plan and, when it ran, its statistics.
public struct ExplainMetrics: Sendable {
  /// The plan.
  public let planSummary: PlanSummary
  /// The execution's statistics; `nil` unless the query ran (``ExplainOptions/analyze``).
  public let executionStats: ExecutionStats?

  init(_ report: ExplainReport) {
    planSummary = PlanSummary(indexesUsed: report.indexesUsed.map { Self.object($0) })
    executionStats = report.execution.map { execution in
      ExecutionStats(
        resultsReturned: Int(clamping: execution.resultsReturned),
        executionDuration: .saturating(seconds: execution.executionSeconds),
        readOperations: Int(clamping: execution.readOperations), debugStats: Self.object(execution.debugStats))
    }
  }

  /// The `explainMetrics` of a reply's elements (the last element carries them).
  ///
  /// - Throws: `unimplemented` when no element has them: the server ran the query without
  ///   explaining it, as the Firestore emulator does.
  static func from(_ elements: [JSONValue], firestore: Firestore) throws -> ExplainMetrics {
    guard let json = elements.lazy.compactMap({ $0["explainMetrics"] }).last else {
      throw FirestoreError(
        .unimplemented,
        "the server answered without explain metrics, so it does not explain queries (the Firestore emulator ignores explainOptions)")
    }
    return ExplainMetrics(try firestore.decode("explain metrics") { try ExplainReport(json: json) })
  }

  /// A JSON object (a protobuf `Struct`) as Swift values: strings, `Int` for whole numbers,
  /// `Double`, `Bool`, `NSNull`, arrays and dictionaries.
  static func object(_ json: JSONValue) -> [String: any Sendable] {
    guard case .object(let members) = json else { return [:] }
    var out: [String: any Sendable] = [:]
    for (key, value) in members where out[key] == nil { out[key] = self.value(value) }
    return out
  }

  private static func value(_ json: JSONValue) -> any Sendable {
    switch json {
    case .null: return NSNull()
    case .bool(let b): return b
    case .string(let s): return s
    case .number(let text): return Int(text).map { $0 as any Sendable } ?? Double(text) ?? text
    case .array(let elements): return elements.map(value) as [any Sendable]
    case .object: return object(json)
    }
  }
}
