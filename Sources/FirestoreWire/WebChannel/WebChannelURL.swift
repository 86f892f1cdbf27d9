/// Query parameters of the WebChannel requests of one Firestore Listen session.
///
/// All functions are pure: the caller keeps the ids (`RID`, `AID`, `SID`) and supplies
/// the cache-buster `zx` and attempt number `t`. Every request carries `database` (the
/// emulator hangs a handshake without it) and `VER=8`. Join with ``query(_:)``, which
/// percent-encodes values (`database` becomes `projects%2FP%2Fdatabases%2FD`; SIDs are
/// base64 and may contain `+ / =`).
public enum WebChannelURL {
  /// The channel path, relative to the host: one channel is one gRPC `Listen` stream.
  public static let path = "/google.firestore.v1.Firestore/Listen/channel"
  /// The channel wire version (`VER`).
  public static let version = "8"
  /// The client version (`CVER`); with it the `c` message includes the keep-alive.
  public static let clientVersion = "22"

  /// Parameters of the handshake POST.
  ///
  /// - Parameters:
  ///   - database: `projects/P/databases/D` (unencoded).
  ///   - requestID: the first `RID`; any number (the web client picks 0..<100000). Later
  ///     forward POSTs use `requestID + 1`, `+ 2`, ….
  ///   - zx: a random cache buster (see ``randomZX(using:)``).
  ///   - attempt: `t`, the 1-based attempt number of this request.
  ///   - requestHTTPSessionID: adds `X-HTTP-Session-Id=gsessionid`, asking production to
  ///     return an `X-HTTP-Session-Id` header whose value later goes in `gsessionid`.
  ///   - httpHeaders: headers for the session sent as `$httpHeaders` (`Name:Value\r\n…`);
  ///     empty sends none. Headers can instead go in the body (``WebChannelForwardBody``).
  public static func handshake(
    database: String, requestID: Int, zx: String, attempt: Int = 1, requestHTTPSessionID: Bool = true,
    httpHeaders: [(name: String, value: String)] = []
  ) -> [(String, String)] {
    var params: [(String, String)] = [("database", database), ("VER", version), ("RID", String(requestID)), ("CVER", clientVersion)]
    if requestHTTPSessionID { params.append(("X-HTTP-Session-Id", "gsessionid")) }
    if !httpHeaders.isEmpty {
      params.append(("$httpHeaders", httpHeaders.map { "\($0.name):\($0.value)\r\n" }.joined()))
    }
    params += [("zx", zx), ("t", String(attempt))]
    return params
  }

  /// Parameters of a back-channel GET (streaming mode: `RID=rpc`, `CI=0`, `TYPE=xmlhttp`).
  ///
  /// - Parameters:
  ///   - database: the database resource name, `projects/{p}/databases/{d}`.
  ///   - sessionID: `SID`, from the handshake's `c` message.
  ///   - lastArrayID: `AID`, the highest array id the client has processed (0 before
  ///     any); the server re-sends every array above it.
  ///   - zx: a random cache buster.
  ///   - attempt: `t`, the 1-based attempt number of this request.
  ///   - httpSessionID: the `X-HTTP-Session-Id` value from the handshake, sent as
  ///     `gsessionid`; `nil` (always on the emulator) sends nothing.
  public static func backChannel(
    database: String, sessionID: String, lastArrayID: Int, zx: String, attempt: Int = 1, httpSessionID: String? = nil
  ) -> [(String, String)] {
    var params = common(database: database, httpSessionID: httpSessionID)
    params += [
      ("RID", "rpc"), ("SID", sessionID), ("AID", String(lastArrayID)), ("CI", "0"), ("TYPE", "xmlhttp"), ("zx", zx),
      ("t", String(attempt)),
    ]
    return params
  }

  /// Parameters of a forward POST (addTarget / removeTarget).
  ///
  /// - Parameters:
  ///   - database: the database resource name, `projects/{p}/databases/{d}`.
  ///   - sessionID: `SID`, from the handshake's `c` message.
  ///   - requestID: `RID`, one more than the previous POST's; a retry reuses its RID. A
  ///     POST without RID is answered but its messages are dropped.
  ///   - lastArrayID: `AID`, as for ``backChannel(database:sessionID:lastArrayID:zx:attempt:httpSessionID:)``.
  ///   - zx: a random cache buster.
  ///   - attempt: `t`, the 1-based attempt number of this request.
  ///   - httpSessionID: `gsessionid`, as for the back channel.
  public static func forward(
    database: String, sessionID: String, requestID: Int, lastArrayID: Int, zx: String, attempt: Int = 1,
    httpSessionID: String? = nil
  ) -> [(String, String)] {
    var params = common(database: database, httpSessionID: httpSessionID)
    params += [("SID", sessionID), ("RID", String(requestID)), ("AID", String(lastArrayID)), ("zx", zx), ("t", String(attempt))]
    return params
  }

  /// Parameters of the terminate GET (`TYPE=terminate`), which ends the session; the
  /// reply is 200 with an empty body and later requests with the SID get 400.
  ///
  /// - Parameters:
  ///   - database: the database resource name, `projects/{p}/databases/{d}`.
  ///   - sessionID: `SID`, from the handshake's `c` message.
  ///   - requestID: `RID`, the next request number.
  ///   - zx: a random cache buster.
  ///   - attempt: `t`, the 1-based attempt number of this request.
  ///   - httpSessionID: `gsessionid`, as for the back channel.
  public static func terminate(
    database: String, sessionID: String, requestID: Int, zx: String, attempt: Int = 1, httpSessionID: String? = nil
  ) -> [(String, String)] {
    var params = common(database: database, httpSessionID: httpSessionID)
    params += [("SID", sessionID), ("RID", String(requestID)), ("TYPE", "terminate"), ("zx", zx), ("t", String(attempt))]
    return params
  }

  /// `params` as a query string (`k=v&…`, no leading `?`), each side percent-encoded.
  public static func query(_ params: [(String, String)]) -> String {
    FormURLEncoding.query(params)
  }

  /// A random cache buster like the web client's: 12 lower-case base-36 characters.
  public static func randomZX(using generator: inout some RandomNumberGenerator) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    return String((0..<12).map { _ in alphabet.randomElement(using: &generator)! })
  }

  private static func common(database: String, httpSessionID: String?) -> [(String, String)] {
    var params: [(String, String)] = [("database", database), ("VER", version)]
    if let httpSessionID { params.append(("gsessionid", httpSessionID)) }
    return params
  }
}
