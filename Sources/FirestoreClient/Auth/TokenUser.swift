internal import COpenSSL
import Foundation

/// Who a token stands for, as far as queued writes are concerned: each user's pending
/// writes are sent only with that user's tokens, and wait while another user (or none) is
/// signed in.
///
/// Two tokens of one user (a refreshed ID token, a new access token of one service account)
/// are the same `TokenUser`; tokens of different users are not.
public enum TokenUser: Hashable, Sendable, CustomStringConvertible {
  /// No token: requests go without credentials (signed out).
  case unauthenticated
  /// A user, by a stable ID: a Firebase user's `uid:…`, a service account's e-mail, a
  /// digest of a fixed token. Never the token itself.
  case authenticated(String)

  /// The user of `token` as every provider reads it unless it knows better: no token is
  /// ``unauthenticated``; a JWT (a Firebase ID token, the emulator's) is its subject; any
  /// other token is `opaqueUser` (the provider's one user), or, when that is `nil`, the
  /// token's digest.
  public static func of(_ token: String?, opaqueUser: String? = nil) -> TokenUser {
    guard let token else { return .unauthenticated }
    if let subject = JWT.claims(of: token)?["sub"]?.stringValue, !subject.isEmpty { return .authenticated("uid:" + subject) }
    return .authenticated(opaqueUser ?? "token:" + digest(token))
  }

  /// The key stored with queued writes: `""` for ``unauthenticated``.
  var storageKey: String {
    switch self {
    case .unauthenticated: return ""
    case .authenticated(let id): return id
    }
  }

  /// The user a stored key names.
  init(storageKey: String) {
    self = storageKey.isEmpty ? .unauthenticated : .authenticated(storageKey)
  }

  /// `unauthenticated`, or the user's ID.
  public var description: String { storageKey.isEmpty ? "unauthenticated" : storageKey }

  /// The SHA-256 of `text`, in hex: stable across processes, and no token can be read back
  /// from it.
  private static func digest(_ text: String) -> String {
    var output = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    let bytes = Array(text.utf8)
    let ok = bytes.withUnsafeBytes { input in
      EVP_Digest(input.baseAddress, input.count, &output, &length, EVP_sha256(), nil) == 1
    }
    guard ok else {
      // libcrypto without SHA-256: FNV-1a, still stable across processes.
      let hash = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
      return String(hash, radix: 16)
    }
    let hex = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in output.prefix(Int(length)) { text += [hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
    return String(decoding: text, as: UTF8.self)
  }
}
