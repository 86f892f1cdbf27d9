import FirestoreWire
import Foundation

/// JSON Web Tokens (RFC 7519) in compact form: the RS256 assertions of service accounts,
/// the emulator's unsigned tokens, and reading the claims of Firebase ID tokens.
enum JWT {
  /// `header.claims.signature`, signed with RS256; the header gets `alg` and `typ`.
  static func signRS256(header extra: [(String, JSONValue)] = [], claims: JSONValue, key: RSAPrivateKey) throws(RSAPrivateKey.KeyError)
    -> String
  {
    let header = JSONValue.object([("alg", .string("RS256")), ("typ", .string("JWT"))] + extra)
    let signingInput = base64URL(JSONWriter.bytes(header)) + "." + base64URL(JSONWriter.bytes(claims))
    let signature = try key.signSHA256(Array(signingInput.utf8))
    return signingInput + "." + base64URL(signature)
  }

  /// An unsigned token (`alg: none`, empty signature part), as the emulator accepts.
  static func unsigned(claims: JSONValue) -> String {
    let header = JSONValue.object([("alg", .string("none")), ("typ", .string("JWT"))])
    return base64URL(JSONWriter.bytes(header)) + "." + base64URL(JSONWriter.bytes(claims)) + "."
  }

  /// The claims of a compact JWT, without checking its signature (the server does that);
  /// `nil` when the text is not a JWT.
  static func claims(of token: String) -> JSONValue? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let bytes = decodeBase64URL(parts[1]), let json = try? JSONParser.parse(bytes),
      json.objectValue != nil
    else { return nil }
    return json
  }

  /// A numeric claim (`exp`, `iat`) as seconds since 1970.
  static func numericDate(_ claims: JSONValue, _ name: String) -> Double? {
    guard case .number(let text) = claims[name] else { return nil }
    return Double(text)
  }

  /// Base64url without padding (RFC 7515 §2).
  static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Decodes base64url with or without padding.
  static func decodeBase64URL(_ text: Substring) -> [UInt8]? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
    return Data(base64Encoded: standard).map(Array.init)
  }
}
