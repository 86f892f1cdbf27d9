import CommandLineSupport
import FirestorePlatform

/// How document data is spelled on the command line and in output.
enum DataFormat: String, Sendable {
  /// Extended JSON: plain JSON values with `$timestamp`, `$bytes`, … objects (`data` key).
  case json
  /// Firestore's REST mapping (`{"integerValue":"5"}`), under a `fields` key.
  case rest

  /// Parses an option value.
  static func parse(_ text: String, option: String) throws(UsageError) -> DataFormat {
    guard let format = DataFormat(rawValue: text) else {
      throw UsageError("\(option) must be json or rest, got '\(DisplayText.excerpt(text))'")
    }
    return format
  }

  /// The key of a document line that holds its data.
  var dataKey: String { self == .json ? "data" : "fields" }
}
