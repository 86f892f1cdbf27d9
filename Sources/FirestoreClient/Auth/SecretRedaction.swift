import FirestorePlatform

/// Removes secrets from text that is about to become part of an error: the last line of
/// defence for server replies that might echo what was sent. The rules themselves are
/// ``DisplayText``'s; this holds the secrets of one exchange.
struct SecretRedaction: Sendable {
  /// The secrets to remove; short ones are ignored, since they would garble ordinary words.
  var secrets: [String]

  /// `text` with every secret replaced by `<redacted>`, ready to be shown.
  func scrub(_ text: String) -> String {
    DisplayText.sanitize(text, secrets: secrets)
  }

  /// `error` with its message scrubbed (and its underlying error dropped when that could
  /// carry a secret in its own description).
  func scrub(_ error: FirestoreError) -> FirestoreError {
    error.with { parts in
      parts.message = scrub(error.message)
      if let underlying = error.underlyingError {
        let described = String(describing: underlying)
        if DisplayText.redact(described, secrets: secrets) != described { parts.underlyingError = nil }
      }
    }
  }
}
