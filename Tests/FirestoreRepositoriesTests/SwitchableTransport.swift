import FirestoreClient
import FirestorePlatform
import FirestoreWire

/// A transport that can be cut off: while `offline`, every request fails as an unreachable
/// server does (`unavailable`), without touching the network.
final class SwitchableTransport: Transport {
  private let base: any Transport
  private let isOffline = Locked(false)

  init(wrapping base: any Transport = FirestoreSettings.defaultTransport) {
    self.base = base
  }

  var offline: Bool {
    get { isOffline.withLock { $0 } }
    set { isOffline.withLock { $0 = newValue } }
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    if offline { throw FirestoreError(.unavailable, "offline (test): \(request.method) \(request.url.path)") }
    return try await base.send(request)
  }
}
