/// A command line that cannot be run as given: exit status 2.
///
/// The message names the problem (the unknown option, the bad operator, the malformed JSON);
/// `command` is the command whose help explains the right form, if one was recognised.
package struct UsageError: Error, Sendable {
  /// What is wrong.
  package let message: String
  /// The command being parsed, for the "see --help" hint.
  package var command: String?

  package init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }
}
