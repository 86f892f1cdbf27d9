internal import COpenSSL
import Foundation

/// An RSA private key held by OpenSSL's libcrypto, for RS256 signatures (RSASSA-PKCS1-v1_5
/// with SHA-256), the algorithm of Google's service account assertions.
///
/// Parses PEM (`BEGIN PRIVATE KEY`, PKCS #8, as in service account key files, or
/// `BEGIN RSA PRIVATE KEY`). Errors never quote the key.
final class RSAPrivateKey: @unchecked Sendable {
  // @unchecked: the EVP_PKEY is never mutated after init, and signing with one key from
  // several threads at once is safe in OpenSSL 3 (each signature gets its own EVP_MD_CTX).
  private let key: OpaquePointer

  /// Why a key could not be used; the text names the problem, never the key material.
  struct KeyError: Error, Sendable, CustomStringConvertible {
    var description: String
  }

  /// Parses a PEM-encoded RSA private key.
  init(pem: String) throws(KeyError) {
    guard pem.contains("-----BEGIN") else { throw KeyError(description: "is not PEM text (no \"-----BEGIN\" line)") }
    if pem.contains("ENCRYPTED") {
      throw KeyError(description: "is an encrypted private key; service account keys are not encrypted")
    }
    let bytes = Array(pem.utf8)
    let parsed: OpaquePointer? = bytes.withUnsafeBytes { raw in
      guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
      defer { BIO_free(bio) }
      // A passphrase callback that supplies none: OpenSSL's default would prompt on the
      // terminal for an encrypted key and block the process.
      return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
    }
    // The error queue is per thread; leave it empty for the next caller.
    defer { ERR_clear_error() }
    guard let parsed else { throw KeyError(description: "is not a PEM-encoded private key that OpenSSL can read") }
    guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA else {
      EVP_PKEY_free(parsed)
      throw KeyError(description: "is not an RSA key (RS256 needs RSA)")
    }
    guard EVP_PKEY_get_bits(parsed) >= 2048 else {
      EVP_PKEY_free(parsed)
      throw KeyError(description: "is an RSA key shorter than 2048 bits")
    }
    key = parsed
  }

  deinit { EVP_PKEY_free(key) }

  /// The RS256 signature of `message`.
  func signSHA256(_ message: [UInt8]) throws(KeyError) -> [UInt8] {
    defer { ERR_clear_error() }
    guard let context = EVP_MD_CTX_new() else { throw KeyError(description: "could not allocate a signing context") }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
      throw KeyError(description: "could not start an RS256 signature")
    }
    var length = 0
    let sized = message.withUnsafeBufferPointer { EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }
    guard sized == 1, length > 0 else { throw KeyError(description: "could not size an RS256 signature") }
    var signature = [UInt8](repeating: 0, count: length)
    let signed = message.withUnsafeBufferPointer { input in
      signature.withUnsafeMutableBufferPointer { EVP_DigestSign(context, $0.baseAddress, &length, input.baseAddress, input.count) }
    }
    guard signed == 1 else { throw KeyError(description: "RS256 signing failed") }
    return Array(signature.prefix(length))
  }
}
