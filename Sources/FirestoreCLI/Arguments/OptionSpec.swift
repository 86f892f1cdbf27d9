/// One option a command (or the command line as a whole) accepts.
struct OptionSpec: Sendable {
  /// The spelling, with its dashes: `--limit`.
  let name: String
  /// The placeholder of its value in help (`N`), or `nil` for a flag.
  let valueName: String?
  /// Whether it may be given more than once (`--where`).
  let repeatable: Bool
  /// One line of help.
  let help: String

  init(_ name: String, _ valueName: String? = nil, repeatable: Bool = false, help: String) {
    self.name = name
    self.valueName = valueName
    self.repeatable = repeatable
    self.help = help
  }

  /// `--limit N`, as help shows it.
  var synopsis: String { valueName.map { "\(name) \($0)" } ?? name }
}
