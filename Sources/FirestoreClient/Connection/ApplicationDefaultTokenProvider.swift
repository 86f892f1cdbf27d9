import FirestorePlatform
import FirestoreWire
import Foundation

/// The token provider of ``Firestore/firestore()`` in production: Application Default
/// Credentials, looked for at the first request rather than when the instance is made (the
/// search may ask the metadata server, which takes time).
///
/// A failed search is not remembered: the next request looks again, so credentials that
/// appear later (a mounted key, a metadata server coming up) are used.
final class ApplicationDefaultTokenProvider: TokenProvider, CustomStringConvertible {
  private let environment: [String: String]
  private let found = Locked<ApplicationDefaultCredentials?>(nil)

  init(environment: [String: String]) {
    self.environment = environment
  }

  private func credentials() async throws -> ApplicationDefaultCredentials {
    if let credentials = found.withLock({ $0 }) { return credentials }
    let credentials = try await ApplicationDefaultCredentials.find(environment: environment)
    found.withLock { $0 = $0 ?? credentials }
    return credentials
  }

  func token(forceRefresh: Bool) async throws -> String? {
    try await credentials().tokenProvider.token(forceRefresh: forceRefresh)
  }

  func projectID() async throws -> String? {
    try await credentials().projectID
  }

  /// As the credentials found say; before the search, as the token reads.
  func user(for token: String?) -> TokenUser {
    found.withLock { $0 }?.tokenProvider.user(for: token) ?? .of(token)
  }

  var currentTokenUser: TokenUser? { found.withLock { $0 }?.tokenProvider.currentTokenUser }

  /// `ApplicationDefaultTokenProvider(…)`, with where the credentials were found once known.
  var description: String {
    found.withLock { $0 }.map { "ApplicationDefaultTokenProvider(\($0.source))" } ?? "ApplicationDefaultTokenProvider(not looked up yet)"
  }
}
