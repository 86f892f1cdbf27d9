import FirestorePlatform

/// A command line that cannot be run as given: exit status 2.
///
/// The message names the problem (the unknown option, the bad operator, the malformed JSON);
/// `command` is the command whose help explains the right form, if one was recognised.
/// The message quotes what was given, so it is kept as ``DisplayText`` shows text: a
/// pasted proxy URL loses its password, control characters are spelled out, and a huge
/// argument is cut.
package struct UsageError: Error, Sendable {
  /// What is wrong.
  package let message: String
  /// The command being parsed, for the "see --help" hint.
  package var command: String?

  /// A usage error saying `message`, with the help of `command` to point to.
  package init(_ message: String, command: String? = nil) {
    self.message = DisplayText.sanitize(message)
    self.command = command
  }
}
