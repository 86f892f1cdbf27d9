import FirestoreWire
import Foundation

/// Reads Google credential files (service account keys, `gcloud auth application-default
/// login` files): JSON objects told apart by their `type`.
///
/// Every error names the file and the field, never a value, since values are secrets.
enum CredentialsFile {
  /// What a file holds.
  enum Contents: Sendable {
    case serviceAccount(ServiceAccountCredentials)
    case authorizedUser(AuthorizedUserCredentials)
  }

  /// Reads and parses the file at `path`.
  static func load(path: String, what: String = "credentials file") throws(FirestoreError) -> Contents {
    let source = "\(what) \(path)"
    let data = try read(path: path, source: source)
    let json = try object(data, source: source)
    switch try string(json, "type", source: source) {
    case "service_account": return .serviceAccount(try ServiceAccountCredentials(json: json, source: source))
    case "authorized_user": return .authorizedUser(try AuthorizedUserCredentials(json: json, source: source))
    case let other:
      throw .invalidArgument(
        "\(source): field \"type\" is \"\(other)\"; supported are \"service_account\" and \"authorized_user\"")
    }
  }

  /// The bytes of a file, with an error naming it when it cannot be read.
  static func read(path: String, source: String) throws(FirestoreError) -> Data {
    guard FileManager.default.fileExists(atPath: path) else { throw .invalidArgument("\(source) does not exist") }
    guard let data = FileManager.default.contents(atPath: path) else { throw .invalidArgument("\(source) cannot be read") }
    return data
  }

  /// Parses the bytes as a JSON object; the error gives no excerpt of the text.
  static func object(_ data: Data, source: String) throws(FirestoreError) -> JSONValue {
    guard let json = try? JSONParser.parse(data) else { throw .invalidArgument("\(source) is not valid JSON") }
    guard json.objectValue != nil else { throw .invalidArgument("\(source) is not a JSON object") }
    return json
  }

  /// Checks the optional `type` field names the kind of file expected (a service account
  /// key given where user credentials are expected, or the reverse, fails here).
  static func checkType(_ json: JSONValue, is expected: String, source: String) throws(FirestoreError) {
    if let type = try optionalString(json, "type", source: source), type != expected {
      throw .invalidArgument("\(source): field \"type\" is \"\(type)\", not \"\(expected)\"")
    }
  }

  /// A required non-empty string field.
  static func string(_ json: JSONValue, _ field: String, source: String) throws(FirestoreError) -> String {
    guard let value = json[field] else { throw .invalidArgument("\(source): field \"\(field)\" is missing") }
    guard let text = value.stringValue else {
      throw .invalidArgument("\(source): field \"\(field)\" must be a string, not a \(value.kindName)")
    }
    guard !text.isEmpty else { throw .invalidArgument("\(source): field \"\(field)\" is empty") }
    return text
  }

  /// An optional string field (`nil` when absent or empty).
  static func optionalString(_ json: JSONValue, _ field: String, source: String) throws(FirestoreError) -> String? {
    guard let value = json[field], value != .null else { return nil }
    guard let text = value.stringValue else {
      throw .invalidArgument("\(source): field \"\(field)\" must be a string, not a \(value.kindName)")
    }
    return text.isEmpty ? nil : text
  }

  /// A URL field that carries secrets, so it must be https.
  static func httpsURL(_ json: JSONValue, _ field: String, default fallback: String, source: String) throws(FirestoreError) -> URL {
    let text = try optionalString(json, field, source: source) ?? fallback
    guard let url = URL(string: text), url.host != nil else {
      throw .invalidArgument("\(source): field \"\(field)\" is not a URL")
    }
    guard url.scheme?.lowercased() == "https" else {
      throw .invalidArgument("\(source): field \"\(field)\" must be an https URL; credentials are only sent over https")
    }
    return url
  }
}
