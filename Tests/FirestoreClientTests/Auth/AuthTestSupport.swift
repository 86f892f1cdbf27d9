import FirestoreMock
import FirestorePlatform
import FirestoreWire
import Foundation

@testable import FirestoreClient

/// Forwards requests to a real transport, records them, and answers `401 UNAUTHENTICATED`
/// itself to any request carrying a rejected bearer token (an expired token, as production
/// would see it).
final class GatekeeperTransport: Transport {
  private let inner = CurlTransport()
  private let state = Locked<(requests: [HTTPRequest], rejected: Set<String>)>(([], []))

  /// Tokens (without `Bearer `) that get 401.
  init(rejecting: Set<String> = []) { state.withLock { $0.rejected = rejecting } }

  var requests: [HTTPRequest] { state.withLock { $0.requests } }

  /// The `Authorization` header of each request sent to `pathContaining`.
  func authorizations(pathContaining part: String) -> [String?] {
    requests.filter { $0.url.path.contains(part) }.map { $0.headers["Authorization"] }
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let rejected = state.withLock { state -> Bool in
      state.requests.append(request)
      guard let auth = request.headers["Authorization"], auth.hasPrefix("Bearer ") else { return false }
      return state.rejected.contains(String(auth.dropFirst(7)))
    }
    if rejected {
      return HTTPResponse(
        status: 401,
        body: Data(#"{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}"#.utf8))
    }
    return try await inner.send(request)
  }
}

/// A clock tests move by hand, for token expiry.
final class TestClock: Sendable {
  private let offset = Locked<Duration>(.zero)
  private let start = ContinuousClock.now

  var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
  func advance(_ by: Duration) { offset.withLock { $0 += by } }
}

/// Files in a fresh temporary directory, removed by `cleanUp()`.
struct TempDirectory {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "/swift-firestore-auth-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `text` to `name` (subdirectories created) and returns the full path.
  @discardableResult
  func write(_ name: String, _ text: String) -> String {
    let full = path + "/" + name
    try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: full, contents: Data(text.utf8))
    return full
  }

  func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

enum AuthFixtures {
  static let clientEmail = "firestore-test@demo-auth.iam.gserviceaccount.com"
  static let keyID = "0123456789abcdef0123456789abcdef01234567"

  /// A service account key file's JSON, with fields replaced or removed by `overrides`
  /// (`nil` removes a field).
  static func serviceAccountJSON(_ overrides: [String: JSONValue?] = [:]) -> String {
    var fields: [(String, JSONValue)] = [
      ("type", .string("service_account")), ("project_id", .string("demo-auth")), ("private_key_id", .string(keyID)),
      ("private_key", .string(TestRSAKey.shared.privatePEM)), ("client_email", .string(clientEmail)),
      ("client_id", .string("1234567890")), ("token_uri", .string("https://oauth2.googleapis.com/token")),
    ]
    for (name, value) in overrides {
      fields.removeAll { $0.0 == name }
      if let value { fields.append((name, value)) }
    }
    return JSONWriter.string(.object(fields))
  }

  static func serviceAccount() throws -> ServiceAccountCredentials {
    try ServiceAccountCredentials(jsonData: Data(serviceAccountJSON().utf8))
  }

  /// Lines of the private key's base64 body: none may appear in any error or description.
  static var keyMaterial: [String] {
    TestRSAKey.shared.privatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
  }
}

/// The three parts of a compact JWT, decoded.
struct DecodedJWT {
  let header: JSONValue
  let claims: JSONValue
  let signingInput: String
  let signature: [UInt8]

  init?(_ token: String) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let h = JWT.decodeBase64URL(parts[0]), let c = JWT.decodeBase64URL(parts[1]),
      let s = JWT.decodeBase64URL(parts[2]), let header = try? JSONParser.parse(h), let claims = try? JSONParser.parse(c)
    else { return nil }
    self.header = header
    self.claims = claims
    signingInput = parts[0] + "." + parts[1]
    signature = s
  }
}

extension JSONValue {
  /// An integer member's value.
  var int: Int? {
    if case .number(let text) = self { return Int(text) }
    return nil
  }
}
