import FirestoreWire
import Foundation

/// A service account key: the JSON file the Google Cloud console downloads
/// (`"type": "service_account"`).
///
/// Parsing checks every field the client needs and parses the private key at once, so a
/// bad file fails here with an error that names the file and the field, never the key.
/// The description and `dump` show the account, never the key.
///
/// ```swift
/// let credentials = try ServiceAccountCredentials(contentsOf: "/secrets/key.json")
/// print(credentials.clientEmail)  // "firestore-sa@my-project.iam.gserviceaccount.com"
/// ```
public struct ServiceAccountCredentials: Sendable, CustomStringConvertible, CustomReflectable {
  /// The account's email, the JWT's issuer and subject.
  public let clientEmail: String
  /// The key's ID, sent as the JWT header's `kid`.
  public let privateKeyID: String?
  /// The project the account belongs to, when the file names it.
  public let projectID: String?
  /// Where assertions are exchanged for access tokens (`https://oauth2.googleapis.com/token`).
  public let tokenURI: URL
  /// The parsed private key.
  let privateKey: RSAPrivateKey

  /// The default token endpoint, used when a file has no `token_uri`.
  public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

  /// Reads a key file.
  /// - Throws: ``FirestoreError`` (`invalidArgument`) naming the file and the field that is
  ///   missing or malformed, or saying that the file cannot be read.
  public init(contentsOf path: String) throws(FirestoreError) {
    let source = "service account key file \(path)"
    let json = try CredentialsFile.object(try CredentialsFile.read(path: path, source: source), source: source)
    try self.init(json: json, source: source)
  }

  /// Parses a key from its JSON text; `source` names it in errors.
  public init(jsonData: Data, source: String = "service account key JSON") throws(FirestoreError) {
    try self.init(json: try CredentialsFile.object(jsonData, source: source), source: source)
  }

  init(json: JSONValue, source: String) throws(FirestoreError) {
    try CredentialsFile.checkType(json, is: "service_account", source: source)
    clientEmail = try CredentialsFile.string(json, "client_email", source: source)
    privateKeyID = try CredentialsFile.optionalString(json, "private_key_id", source: source)
    projectID = try CredentialsFile.optionalString(json, "project_id", source: source)
    tokenURI = try CredentialsFile.httpsURL(json, "token_uri", default: Self.defaultTokenURI, source: source)
    let pem = try CredentialsFile.string(json, "private_key", source: source)
    do {
      privateKey = try RSAPrivateKey(pem: pem)
    } catch {
      throw .invalidArgument("\(source): field \"private_key\" \(error)")
    }
  }

  /// `ServiceAccountCredentials(client_email: …, private_key_id: …, project_id: …)`; no key.
  public var description: String {
    "ServiceAccountCredentials(client_email: \(clientEmail), private_key_id: \(privateKeyID ?? "none"), project_id: \(projectID ?? "none"))"
  }

  /// The public fields only, so `dump` and debuggers never show the key.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: ["clientEmail": clientEmail, "privateKeyID": privateKeyID as Any, "projectID": projectID as Any, "tokenURI": tokenURI],
      displayStyle: .struct)
  }
}
