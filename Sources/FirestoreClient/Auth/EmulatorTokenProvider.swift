import FirestoreWire
import Foundation

/// Tokens for the Firestore emulator: its administrator token `owner` (security rules
/// bypassed), or an unsigned JWT that makes the emulator see a signed-in user, for testing
/// security rules.
///
/// The emulator does not check signatures: it reads the user ID from `sub` as
/// `request.auth.uid` and every claim into `request.auth.token`. Production rejects these
/// tokens.
///
/// ```swift
/// let settings = FirestoreSettings.emulator(host: "127.0.0.1:8080")
/// settings.tokenProvider = EmulatorTokenProvider(uid: "alice", claims: ["admin": true])
/// // Rules see request.auth.uid == "alice" and request.auth.token.admin == true.
/// ```
public struct EmulatorTokenProvider: TokenProvider, CustomStringConvertible, CustomReflectable {
  /// Claims the token sets itself; custom claims may not use them.
  public static let reservedClaims: Set<String> = [
    "sub", "user_id", "iss", "aud", "iat", "exp", "auth_time", "firebase", "nbf", "jti",
  ]

  /// The administrator token, `owner`.
  public static let owner = EmulatorTokenProvider(token: "owner", uid: nil)

  /// The user ID, or `nil` for ``owner``.
  public let uid: String?
  private let token: String?
  private let error: FirestoreError?

  private init(token: String?, uid: String?, error: FirestoreError? = nil) {
    self.token = token
    self.uid = uid
    self.error = error
  }

  /// A user with ID `uid` and custom claims.
  ///
  /// Claim values may be strings, booleans, integers, doubles, arrays and string-keyed
  /// dictionaries of those. A bad `uid` (empty, over 128 characters), a reserved claim
  /// name or an unsupported value is reported as `invalidArgument` by ``token(forceRefresh:)``,
  /// so by the first request.
  ///
  /// - Parameters:
  ///   - uid: the user ID rules see as `request.auth.uid`.
  ///   - claims: extra claims rules see in `request.auth.token`, e.g. `["admin": true]`.
  ///   - projectID: the project, for the `iss` and `aud` claims real ID tokens carry.
  public init(uid: String, claims: [String: any Sendable] = [:], projectID: String? = nil) {
    self.uid = uid
    do throws(FirestoreError) {
      guard !uid.isEmpty, uid.count <= 128 else {
        throw .invalidArgument("emulator user ID \"\(uid.prefix(140))\" must be 1 to 128 characters")
      }
      var payload: [(String, JSONValue)] = []
      if let projectID {
        payload += [("iss", .string("https://securetoken.google.com/\(projectID)")), ("aud", .string(projectID))]
      }
      let now = Int64(Date().timeIntervalSince1970)
      payload += [
        ("iat", .integer(now)), ("exp", .integer(now + 3600)), ("auth_time", .integer(now)), ("sub", .string(uid)),
        ("user_id", .string(uid)),
        ("firebase", .object([("sign_in_provider", .string("custom")), ("identities", .object([]))])),
      ]
      for name in claims.keys.sorted() {
        guard !Self.reservedClaims.contains(name) else {
          throw .invalidArgument("claim \"\(name)\" is reserved; it is set from the uid and project")
        }
        payload.append((name, try Self.json(claims[name]!, path: name)))
      }
      token = JWT.unsigned(claims: .object(payload))
      error = nil
    } catch {
      token = nil
      self.error = error
    }
  }

  /// The token, or the error recorded when the provider was made.
  public func token(forceRefresh: Bool) async throws -> String? {
    if let error { throw error }
    return token
  }

  /// The token's user, known without asking.
  public var currentTokenUser: TokenUser? { user(for: token) }

  /// `EmulatorTokenProvider(owner)` or `EmulatorTokenProvider(uid: …)`.
  public var description: String { uid.map { "EmulatorTokenProvider(uid: \($0))" } ?? "EmulatorTokenProvider(owner)" }

  /// The user ID only, so `dump` and debuggers never show the token.
  public var customMirror: Mirror { Mirror(self, children: ["uid": uid as Any], displayStyle: .struct) }

  static func json(_ value: Any, path: String) throws(FirestoreError) -> JSONValue {
    switch value {
    case let v as String: return .string(v)
    case let v as Bool: return .bool(v)
    case let v as Int: return .integer(Int64(v))
    case let v as Int64: return .integer(v)
    case let v as Int32: return .integer(Int64(v))
    case let v as Double where v.isFinite: return .number(String(v))
    case let v as Float where v.isFinite: return .number(String(Double(v)))
    case let v as [Any]:
      var out: [JSONValue] = []
      for (i, element) in v.enumerated() { out.append(try json(element, path: "\(path)[\(i)]")) }
      return .array(out)
    case let v as [String: Any]:
      var out: [(String, JSONValue)] = []
      for key in v.keys.sorted() { out.append((key, try json(v[key]!, path: "\(path).\(key)"))) }
      return .object(out)
    case is NSNull: return .null
    default:
      throw .invalidArgument("claim \(path) has a value of type \(type(of: value)), which a token cannot carry")
    }
  }
}
