/// One option a command (or the command line as a whole) accepts.
package struct OptionSpec: Sendable {
  /// The spelling, with its dashes: `--limit`.
  package let name: String
  /// The placeholder of its value in help (`N`), or `nil` for a flag.
  package let valueName: String?
  /// Whether it may be given more than once (`--where`).
  package let repeatable: Bool
  /// One line of help; empty for a tool that writes its usage text by hand.
  package let help: String

  /// An option spelled `name`, taking a value shown as `valueName` (none: a flag).
  package init(_ name: String, _ valueName: String? = nil, repeatable: Bool = false, help: String = "") {
    self.name = name
    self.valueName = valueName
    self.repeatable = repeatable
    self.help = help
  }

  /// `--limit N`, as help shows it.
  package var synopsis: String { valueName.map { "\(name) \($0)" } ?? name }
}
