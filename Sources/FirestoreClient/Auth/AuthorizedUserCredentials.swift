import FirestoreWire
import Foundation

/// A user's OAuth refresh token as `gcloud auth application-default login` stores it
/// (`"type": "authorized_user"`): client ID and secret plus a refresh token.
///
/// The description and `dump` show the client ID only, never the secret or the token.
public struct AuthorizedUserCredentials: Sendable, CustomStringConvertible, CustomReflectable {
  /// The OAuth client ID.
  public let clientID: String
  /// The OAuth client secret.
  let clientSecret: String
  /// The long-lived refresh token.
  let refreshToken: String
  /// The project billed for quota, when the file names one.
  public let quotaProjectID: String?
  /// Where refresh tokens are exchanged for access tokens.
  public let tokenURI: URL

  /// Google's OAuth token endpoint.
  public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

  /// Reads a file written by `gcloud auth application-default login`.
  /// - Throws: ``FirestoreError`` (`invalidArgument`) naming the file and the field.
  public init(contentsOf path: String) throws(FirestoreError) {
    let source = "authorized user credentials file \(path)"
    let json = try CredentialsFile.object(try CredentialsFile.read(path: path, source: source), source: source)
    try self.init(json: json, source: source)
  }

  init(json: JSONValue, source: String) throws(FirestoreError) {
    try CredentialsFile.checkType(json, is: "authorized_user", source: source)
    clientID = try CredentialsFile.string(json, "client_id", source: source)
    clientSecret = try CredentialsFile.string(json, "client_secret", source: source)
    refreshToken = try CredentialsFile.string(json, "refresh_token", source: source)
    quotaProjectID = try CredentialsFile.optionalString(json, "quota_project_id", source: source)
    tokenURI = try CredentialsFile.httpsURL(json, "token_uri", default: Self.defaultTokenURI, source: source)
  }

  /// `AuthorizedUserCredentials(client_id: …)`; no secret, no token.
  public var description: String { "AuthorizedUserCredentials(client_id: \(clientID))" }

  /// The public fields only, so `dump` and debuggers never show a secret.
  public var customMirror: Mirror {
    Mirror(self, children: ["clientID": clientID, "quotaProjectID": quotaProjectID as Any, "tokenURI": tokenURI], displayStyle: .struct)
  }
}
