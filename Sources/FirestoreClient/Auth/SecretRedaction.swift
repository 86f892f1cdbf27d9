import Foundation

/// Removes secrets from text that is about to become part of an error: the last line of
/// defence for server replies that might echo what was sent.
struct SecretRedaction: Sendable {
  /// The secrets to remove; short ones are ignored, since they would garble ordinary words.
  var secrets: [String]

  /// `text` with every secret replaced by `<redacted>`.
  func scrub(_ text: String) -> String {
    var result = text
    for secret in secrets where secret.count >= 6 {
      result = result.replacingOccurrences(of: secret, with: "<redacted>")
    }
    return result
  }

  /// `error` with its message scrubbed (and its underlying error dropped when that could
  /// carry a secret in its own description).
  func scrub(_ error: FirestoreError) -> FirestoreError {
    var copy = error
    copy.message = scrub(error.message)
    if let underlying = error.underlyingError, scrub(String(describing: underlying)) != String(describing: underlying) {
      copy.underlyingError = nil
    }
    return copy
  }
}
