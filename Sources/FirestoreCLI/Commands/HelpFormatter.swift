import CommandLineSupport

/// Lays out option lists for `--help`.
enum HelpFormatter {
  /// One option per line, help texts aligned.
  static func list(_ options: [OptionSpec]) -> String {
    let width = min(32, (options.map { $0.synopsis.count + ($0.repeatable ? 4 : 0) }.max() ?? 0) + 2)
    var text = ""
    for option in options {
      var left = option.synopsis + (option.repeatable ? " ..." : "")
      if left.count < width { left += String(repeating: " ", count: width - left.count) } else { left += "  " }
      text += "  \(left)\(option.help)\n"
    }
    return text
  }
}
