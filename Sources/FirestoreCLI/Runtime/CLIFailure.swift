/// A failure outside Firestore (a file that cannot be read, bad data in an input file):
/// exit status 1, printed as `error: CODE: message` like a Firestore error.
struct CLIFailure: Error, Sendable {
  /// A canonical code name such as `NOT_FOUND` or `INVALID_ARGUMENT`.
  let code: String
  /// What went wrong, naming the file or line.
  let message: String

  init(_ code: String, _ message: String) {
    self.code = code
    self.message = message
  }
}
