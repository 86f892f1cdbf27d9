import Foundation

/// The results as a table for people: one line per result, figures after the timings.
///
/// ```
/// scenario        n  median ms    p95 ms  cpu ms/op  figures
/// query-full             60      35.20     41.02      12.10  docs 400, bytes_received 1155402, ...
/// ```
enum ResultTable {
  /// The width of the scenario column.
  static let width = 18

  /// The header line.
  static var header: String {
    pad("scenario", width) + "  " + left("n", 5) + "  " + left("median ms", 10) + "  " + left("p95 ms", 10) + "  "
      + left("cpu ms/op", 10) + "  figures\n"
  }

  /// The rows of `results` (no header), each followed by its label, ending in a newline.
  static func render(_ results: [BenchResult]) -> String {
    var out = ""
    for result in results {
      let cpu: String
      if case .number(let value)? = result.figure("cpu_ms") { cpu = number(value) } else { cpu = "-" }
      let figures = result.figures.filter { $0.key != "cpu_ms" }.map { "\($0.key) \(text($0.value))" }.joined(separator: ", ")
      out +=
        pad(result.scenario, width) + "  " + left(String(result.n), 5) + "  " + left(number(result.median), 10) + "  "
        + left(number(result.p95), 10) + "  " + left(cpu, 10) + "  " + figures + "\n"
      out += pad("", width) + "  " + result.label + "\n"
    }
    return out
  }

  private static func text(_ figure: BenchResult.Figure) -> String {
    switch figure {
    case .number(let value): return number(value)
    case .integer(let value): return String(value)
    case .text(let value): return value
    case .flag(let value): return value ? "yes" : "no"
    }
  }

  /// Two decimals below 100, one below 1000, none above.
  private static func number(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    return String(format: value < 100 ? "%.2f" : value < 1000 ? "%.1f" : "%.0f", value)
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  private static func left(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }
}
