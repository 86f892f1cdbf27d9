import BenchmarkSupport
import CommandLineSupport

/// The soak's command line.
struct SoakOptions {
  /// How long writes go on, in seconds.
  var seconds = 600
  /// The pause between two writes.
  var writeIntervalMilliseconds = 100
  /// The pause between two cuts of the Listen back channel.
  var cutIntervalSeconds = 20
  /// How much the resident set may grow from the first sample after warm-up to the end.
  var rssGrowthLimitMegabytes = 16.0
  /// The `firestore-mock-server` executable; `nil` looks next to this one.
  var mockServer: String?

  static let usage = """
    usage: firestore-soak [--seconds N] [--write-interval-ms N] [--cut-interval-s N]
                          [--rss-growth-limit-mb N] [--mock-server PATH]

    Runs a query listener and a document listener against a firestore-mock-server child
    process for N seconds (default 600) while writing a document every 100 ms and cutting
    the Listen back channel every 20 s. Passes (exit 0) when both listeners end in the
    server's state with no duplicate, unknown, lost or stale change, recovered after every
    cut, and this process's resident memory grew less than the limit (default 16 MB) from
    the first sample after warm-up to the end. Exit 1 when a check fails, 2 for a bad
    command line.

    """

  /// The options `firestore-soak` accepts, each with a value (``usage`` explains them).
  static let specs = ["--seconds", "--write-interval-ms", "--cut-interval-s", "--rss-growth-limit-mb", "--mock-server"].map {
    OptionSpec($0, "VALUE")
  }

  /// Parses the arguments after the program name; `nil` means `--help`.
  /// - Throws: `ToolFailure` naming the bad argument.
  static func parse(_ arguments: [String]) throws -> SoakOptions? {
    do throws(UsageError) {
      let parsed = try ArgumentParser(globalOptions: specs).parse(arguments)
      if parsed.wantsHelp { return nil }
      if let extra = parsed.positionals.first { throw UsageError("unknown argument \"\(extra)\"") }
      var options = SoakOptions()
      options.seconds = try parsed.positiveInteger("--seconds") ?? options.seconds
      options.writeIntervalMilliseconds = try parsed.positiveInteger("--write-interval-ms") ?? options.writeIntervalMilliseconds
      options.cutIntervalSeconds = try parsed.positiveInteger("--cut-interval-s") ?? options.cutIntervalSeconds
      options.rssGrowthLimitMegabytes =
        try parsed.positiveInteger("--rss-growth-limit-mb").map(Double.init) ?? options.rssGrowthLimitMegabytes
      options.mockServer = parsed.value("--mock-server")
      return options
    } catch {
      throw ToolFailure.usage(error.message)
    }
  }
}
