import FirestoreClient
import Foundation

/// The emulator behind a TLS + HTTP/2 front (`nghttpx` with a certificate from a test CA),
/// which `scripts/test.sh` starts and names in `FIRESTORE_TEST_HTTP2_FRONT` (`localhost:port`)
/// and `FIRESTORE_TEST_CA` (the CA's PEM file).
public enum HTTP2Front {
  /// `host:port` of the front, when the environment names one.
  public static let host = ProcessInfo.processInfo.environment["FIRESTORE_TEST_HTTP2_FRONT"].flatMap { $0.isEmpty ? nil : $0 }
  /// The PEM file of the CA that signed the front's certificate.
  public static let certificateAuthority = ProcessInfo.processInfo.environment["FIRESTORE_TEST_CA"]
  /// Whether tests can reach the emulator through the front.
  public static let isAvailable = Emulator.isAvailable && host != nil && certificateAuthority != nil
  /// Set by `scripts/test.sh` when the front (and the proxy) must take part.
  public static let isRequired = ProcessInfo.processInfo.environment["FIRESTORE_TEST_FRONTS_REQUIRED"] == "1"
  /// A transport that trusts the test CA.
  public static let transport = CurlTransport(trustedCertificates: certificateAuthority)
}
