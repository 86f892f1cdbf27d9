import FirestoreWire
import Foundation

/// The OAuth 2.0 token request of Google's token endpoint and metadata server: a form
/// POST (or a GET) answered by `{"access_token", "expires_in", "token_type"}`.
enum OAuthTokenExchange {
  /// POSTs `form` to `url` and returns the access token it grants.
  static func post(
    form: [(String, String)], to url: URL, client: TokenEndpointClient, what: String, redaction: SecretRedaction
  ) async throws -> TokenRefresher.Fetched {
    let reply = try await client.send(
      .oauthToken(url, form: form), what: what, redaction: redaction, refusal: refusal(what: what, redaction: redaction))
    return try accessToken(from: reply, what: what)
  }

  /// Reads the access token and its lifetime from a 2xx reply.
  static func accessToken(from reply: TokenEndpointClient.Reply, what: String) throws(FirestoreError) -> TokenRefresher.Fetched {
    // Never quote the body: it holds the token.
    guard let json = reply.json else { throw FirestoreError(.unavailable, "\(what) answered with a body that is not a JSON object") }
    guard let token = json["access_token"]?.stringValue, !token.isEmpty else {
      throw FirestoreError(.unavailable, "\(what) answered without an \"access_token\"")
    }
    if let type = json["token_type"]?.stringValue, type.lowercased() != "bearer" {
      throw FirestoreError(.unavailable, "\(what) answered with token_type \"\(type)\", not \"Bearer\"")
    }
    return TokenRefresher.Fetched(value: token, lifetime: try lifetime(json["expires_in"], field: "expires_in", what: what))
  }

  /// A lifetime in seconds, sent as a number or a numeric string; `nil` when absent.
  static func lifetime(_ value: JSONValue?, field: String, what: String) throws(FirestoreError) -> Duration? {
    let text: String
    switch value {
    case nil, .null?: return nil
    case .number(let n)?: text = n
    case .string(let s)?: text = s
    case let other?: throw FirestoreError(.unavailable, "\(what) answered with a \(other.kindName) \"\(field)\", not a number")
    }
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
      throw FirestoreError(.unavailable, "\(what) answered with \"\(field)\" that is not a number of seconds")
    }
    return .milliseconds(Int64(min(seconds, 1e9) * 1000))
  }

  /// The error for a refusal: OAuth's `{"error", "error_description"}` when present.
  static func refusal(what: String, redaction: SecretRedaction) -> @Sendable (TokenEndpointClient.Reply) -> FirestoreError {
    { reply in
      let code = TokenEndpointClient.code(forStatus: reply.status)
      var detail = ""
      if let json = reply.json {
        if let error = json["error"]?.stringValue { detail = error }
        if let description = json["error_description"]?.stringValue { detail += detail.isEmpty ? description : " (\(description))" }
      }
      let message = "\(what) answered HTTP \(reply.status)" + (detail.isEmpty ? "" : ": " + redaction.scrub(String(detail.prefix(300))))
      return FirestoreError(code, message, httpStatus: reply.status)
    }
  }
}
