/// One scenario the benchmark can run: its name on the command line, a line of help, and
/// what it does. A run returns one or more result rows (a scenario may report variants,
/// such as `decode.json` beside `decode`).
struct Scenario: Sendable {
  /// The name on the command line (`query-full`, `decode`...).
  let name: String
  /// One line for `--help`.
  let summary: String
  /// Runs the scenario with the options of the command line.
  let run: @Sendable (BenchOptions) async throws -> [BenchResult]
}
