internal import COpenSSL
import FirestoreWire
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// TLS on one connected socket of ``SocketTransport``, through OpenSSL's libssl: TLS 1.2 or
/// later, the server's certificate verified against the system's trusted roots (or a given
/// bundle) and its name checked against the host, with SNI. Verification cannot be turned
/// off.
///
/// Reads and writes block, like the socket's; a shutdown of the socket from another thread
/// wakes them with an error.
final class TLSSession: @unchecked Sendable {
  // @unchecked: `ssl` is used by the one thread running the exchange; `free()` runs once,
  // after that thread is done with it (the owning connection's close).
  private let ssl: OpaquePointer

  /// Contexts by trust bundle (`nil`: the system's roots), made once each.
  private static let contexts = Locked<[String: UnsafeSendablePointer]>([:])

  private struct UnsafeSendablePointer: @unchecked Sendable {
    let value: OpaquePointer
  }

  /// Runs the TLS handshake on connected socket `fd` for `host`.
  /// - Parameters:
  ///   - trustedCertificates: a PEM bundle of roots to trust instead of the system's.
  /// - Throws: ``SocketConnection/Failure`` naming what failed (certificate verification,
  ///   the handshake, the bundle).
  init(fd: Int32, host: String, trustedCertificates: String?) throws {
    let context = try Self.context(trustedCertificates: trustedCertificates)
    guard let ssl = SSL_new(context) else { throw Self.failure("cannot create a TLS session") }
    self.ssl = ssl
    do {
      guard SSL_set_fd(ssl, fd) == 1 else { throw Self.failure("cannot attach TLS to the socket") }
      // The name the certificate must carry (an IP address is matched as one), and SNI for names.
      let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
      if isAddress {
        guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else { throw Self.failure("invalid address \(host)") }
      } else {
        guard SSL_set1_host(ssl, host) == 1 else { throw Self.failure("invalid host name \(host)") }
        _ = swiftfirestore_SSL_set_tlsext_host_name(ssl, host)
      }
      let rc = SSL_connect(ssl)
      guard rc == 1 else {
        let verify = SSL_get_verify_result(ssl)
        if verify != Int(X509_V_OK) {
          let reason = String(cString: X509_verify_cert_error_string(verify))
          throw SocketConnection.Failure(message: "TLS certificate of \(host) rejected: \(reason)")
        }
        throw Self.failure("TLS handshake with \(host) failed", ssl: ssl, rc: rc)
      }
    } catch {
      SSL_free(ssl)
      ERR_clear_error()
      throw error
    }
  }

  /// Sends all of `bytes`.
  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        SSL_write(ssl, raw.baseAddress! + offset, Int32(clamping: raw.count - offset))
      }
      guard written > 0 else { throw Self.failure("TLS write failed", ssl: ssl, rc: written) }
      offset += Int(written)
    }
  }

  /// Reads what is there (blocking until something is); `0` when the peer closed.
  func receive(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let n = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
    if n > 0 { return Int(n) }
    let code = SSL_get_error(ssl, n)
    // A clean close_notify, or a peer that closed without one (many servers do): the end.
    if code == SSL_ERROR_ZERO_RETURN || (code == SSL_ERROR_SYSCALL && errno == 0) {
      ERR_clear_error()
      return 0
    }
    throw Self.failure("TLS read failed", ssl: ssl, rc: n)
  }

  /// Whether decrypted bytes are already buffered (a pooled connection with such bytes
  /// holds a reply nobody asked for).
  var hasBufferedData: Bool { SSL_pending(ssl) > 0 }

  /// Frees the session (once, by the connection's close).
  func free() {
    SSL_free(ssl)
  }

  /// The shared context for a trust bundle.
  private static func context(trustedCertificates: String?) throws -> OpaquePointer {
    try contexts.withLock { contexts in
      if let existing = contexts[trustedCertificates ?? ""] { return existing.value }
      guard let context = SSL_CTX_new(TLS_client_method()) else { throw failure("cannot create a TLS context") }
      _ = swiftfirestore_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
      SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
      let loaded =
        trustedCertificates.map { SSL_CTX_load_verify_locations(context, $0, nil) } ?? SSL_CTX_set_default_verify_paths(context)
      guard loaded == 1 else {
        SSL_CTX_free(context)
        throw failure("cannot load trusted certificates" + (trustedCertificates.map { " from \($0)" } ?? ""))
      }
      contexts[trustedCertificates ?? ""] = UnsafeSendablePointer(value: context)
      return context
    }
  }

  /// A failure with OpenSSL's reason, when it gave one; clears OpenSSL's error queue.
  private static func failure(_ what: String, ssl: OpaquePointer? = nil, rc: Int32 = 0) -> SocketConnection.Failure {
    let saved = errno
    var detail = ""
    let code = ERR_get_error()
    if code != 0 {
      var buffer = [CChar](repeating: 0, count: 256)
      ERR_error_string_n(code, &buffer, buffer.count)
      detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    } else if let ssl, SSL_get_error(ssl, rc) == SSL_ERROR_SYSCALL, saved != 0 {
      detail = String(cString: strerror(saved))
    }
    ERR_clear_error()
    return SocketConnection.Failure(message: detail.isEmpty ? what : "\(what): \(detail)")
  }
}
