import BenchmarkSupport

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

  /// Parses the arguments after the program name.
  /// - Throws: `ToolFailure` naming the bad argument.
  static func parse(_ arguments: [String]) throws -> SoakOptions? {
    var options = SoakOptions()
    var index = 0
    func value(_ name: String) throws -> String {
      guard index < arguments.count else { throw ToolFailure.usage("\(name) needs a value") }
      index += 1
      return arguments[index - 1]
    }
    func positive(_ name: String) throws -> Int {
      let text = try value(name)
      guard let number = Int(text), number > 0 else { throw ToolFailure.usage("\(name) takes a positive whole number, not \"\(text)\"") }
      return number
    }
    while index < arguments.count {
      let name = arguments[index]
      index += 1
      switch name {
      case "-h", "--help": return nil
      case "--seconds": options.seconds = try positive(name)
      case "--write-interval-ms": options.writeIntervalMilliseconds = try positive(name)
      case "--cut-interval-s": options.cutIntervalSeconds = try positive(name)
      case "--rss-growth-limit-mb": options.rssGrowthLimitMegabytes = Double(try positive(name))
      case "--mock-server": options.mockServer = try value(name)
      default: throw ToolFailure.usage("unknown option \"\(name)\"")
      }
    }
    return options
  }
}
