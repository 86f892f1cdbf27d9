#if canImport(CCurl)
  import CCurl

  /// What a libcurl error code means for the caller: the ``FirestoreError.Code``, a message
  /// that names the fault in the client's own words (libcurl's detail after it), and
  /// whether the request provably never reached the server.
  struct CurlFailure {
    let code: FirestoreError.Code
    let message: String
    let requestNotSent: Bool

    /// - Parameters:
    ///   - code: libcurl's result.
    ///   - detail: libcurl's message for it.
    ///   - host: the server's host name; `endpoint` is `host:port`.
    ///   - headStarted: some of the response head arrived; `headComplete`: all of it.
    ///   - requestWentOut: the whole request was handed to the connection.
    init(code curl: CURLcode, detail: String, host: String, endpoint: String, headStarted: Bool, headComplete: Bool, requestWentOut: Bool) {
      var notSent = !requestWentOut
      switch curl {
      case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT:
        (code, message) = (.unavailable, "cannot connect to \(endpoint): \(detail)")
        notSent = true
      case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
        (code, message) = (.unavailable, "the proxy for \(endpoint) failed: \(detail)")
        notSent = true
      case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        (code, message) = (.unavailable, "TLS with \(endpoint): the certificate of \(host) rejected: \(detail)")
        notSent = true
      case CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
        (code, message) = (.unavailable, "TLS with \(endpoint): the trusted certificates could not be used: \(detail)")
        notSent = true
      case CURLE_SSL_CONNECT_ERROR:
        (code, message) = (.unavailable, "TLS handshake with \(endpoint) failed: \(detail)")
        notSent = true
      case CURLE_OPERATION_TIMEDOUT:
        (code, message) = (.unavailable, "\(endpoint) timed out: \(detail)")
      case CURLE_SEND_FAIL_REWIND:
        // The reused connection died after the whole request went out: it is not sent again.
        (code, message) = (
          .unavailable, "the connection to \(endpoint) closed before a response arrived (on a reused connection; not sent again)"
        )
        notSent = false
      case CURLE_GOT_NOTHING:
        (code, message) = (.unavailable, "the connection to \(endpoint) closed before a response arrived")
      case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
        if headComplete {
          (code, message) = (.unavailable, "the connection to \(endpoint) closed before the response body was complete: \(detail)")
        } else if headStarted {
          (code, message) = (.unavailable, "the connection to \(endpoint) closed inside the response head: \(detail)")
        } else {
          (code, message) = (.unavailable, "the connection to \(endpoint) closed before a response arrived: \(detail)")
        }
      case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL:
        (code, message) = (.unavailable, "malformed HTTP response from \(endpoint): invalid status line or head: \(detail)")
      case CURLE_HTTP2, CURLE_HTTP2_STREAM:
        (code, message) = (.unavailable, "HTTP/2 error with \(endpoint): \(detail)")
      case CURLE_BAD_CONTENT_ENCODING:
        (code, message) = (.internal, "the response from \(endpoint) could not be decompressed: \(detail)")
      case CURLE_OUT_OF_MEMORY:
        (code, message) = (.resourceExhausted, "out of memory for the request to \(endpoint)")
      case CURLE_URL_MALFORMAT:
        (code, message) = (.invalidArgument, "the URL for \(endpoint) is malformed: \(detail)")
        notSent = true
      default:
        (code, message) = (.unavailable, "network error with \(endpoint): \(detail)")
      }
      requestNotSent = notSent
    }
  }
#endif
