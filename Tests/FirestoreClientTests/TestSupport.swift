import Foundation

@testable import FirestoreClient

/// Clients for tests that must not touch the network.
enum Offline {
  static let root = "/v1/projects/p/databases/(default)/documents"

  /// A client whose requests go to `transport` and whose retries do not sleep.
  static func firestore(_ transport: any Transport, retries: Int = 5) -> Firestore {
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.transport = transport
    settings.retryPolicy = RetryPolicy(maximumAttempts: retries)
    settings.retryPolicy.sleep = { _ in }
    return Firestore(projectID: "p", settings: settings)
  }

  /// A client with a transport that fails the test on any request.
  static func noNetwork() -> (Firestore, ScriptedTransport) {
    let transport = ScriptedTransport([])
    return (firestore(transport), transport)
  }
}
