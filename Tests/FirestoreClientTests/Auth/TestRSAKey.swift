import COpenSSL
import Foundation

/// A throwaway RSA key pair made with libcrypto, for signing test service account keys and
/// verifying the signatures the client makes.
final class TestRSAKey: @unchecked Sendable {
  // @unchecked: the key is never mutated after init; verification uses a fresh context.
  private let key: OpaquePointer
  /// The private key, PEM (PKCS #8), as a service account key file carries it.
  let privatePEM: String

  /// One 2048-bit key for the whole test process (generating one takes a while).
  static let shared = TestRSAKey(bits: 2048)

  init(bits: Int32) {
    let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil)!
    defer { EVP_PKEY_CTX_free(context) }
    precondition(EVP_PKEY_keygen_init(context) == 1)
    precondition(EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) == 1)
    var generated: OpaquePointer?
    precondition(EVP_PKEY_keygen(context, &generated) == 1)
    key = generated!
    let bio = BIO_new(BIO_s_mem())!
    defer { BIO_free(bio) }
    precondition(PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1)
    var pem = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = buffer.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
      if n <= 0 { break }
      pem += buffer[0..<Int(n)]
    }
    privatePEM = String(decoding: pem, as: UTF8.self)
  }

  deinit { EVP_PKEY_free(key) }

  /// Whether `signature` is this key's RS256 signature of `message`.
  func verifyRS256(message: [UInt8], signature: [UInt8]) -> Bool {
    let context = EVP_MD_CTX_new()!
    defer {
      EVP_MD_CTX_free(context)
      ERR_clear_error()
    }
    guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
    return message.withUnsafeBufferPointer { m in
      signature.withUnsafeBufferPointer { s in EVP_DigestVerify(context, s.baseAddress, s.count, m.baseAddress, m.count) }
    } == 1
  }
}
