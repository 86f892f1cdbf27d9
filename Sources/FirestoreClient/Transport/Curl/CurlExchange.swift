import FirestorePlatform

#if canImport(CCurl)
  import CCurl
  import FirestoreWire
  import Foundation

  /// One request and its response on a ``CurlTransport``: the easy handle with its options
  /// and callbacks, the request body it uploads, the response head it assembles and the
  /// ``BodyChannel`` it feeds (a body read whole is kept here until it ends).
  ///
  /// It is made on the caller's thread; once added to the loop, its callbacks and the
  /// fields marked "loop thread" are touched by the loop thread only. What both sides touch
  /// is under ``shared``.
  final class CurlExchange: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    /// Held until the exchange is over, so that the transport's loop outlives it.
    private let transport: CurlTransport
    private let loop: CurlEventLoop
    private let method: String
    private let isIdempotent: Bool
    /// The request's URL; its parts are read for messages only.
    private let url: URL
    /// The host, for messages.
    private let host: String
    /// The scheme's port, when the URL names none.
    private let defaultPort: Int
    /// `host:port`, for messages.
    private var endpoint: String { "\(host):\(url.port ?? defaultPort)" }
    /// The URL path without the query, for messages.
    private var path: String { url.path }
    private let uploadBody: Data?
    /// The body goes out in the head's write, and libcurl keeps a copy of it: one send
    /// instead of two, and one read on the server's side. Only for a request that may go
    /// twice (libcurl sends such a body again on a reused connection that died, with no
    /// seek callback to refuse it) and a body small enough for libcurl to join to the head.
    private let sendsBodyWithHead: Bool
    /// The header list the handle points at, held until it no longer does.
    private var headerList: CurlHeaderList?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private let channel: BodyChannel
    /// The head waits for the body's end (``HTTPRequest/readsWholeBody``), or for the
    /// buffer to fill.
    private let readsWholeBody: Bool

    // Loop thread.
    /// A whole-body read's bytes, kept here until the transfer ends, when they go out as
    /// the reply's data with no channel to pass through, or until they fill
    /// ``wholeBodyBuffer``, when they move into the channel and the rest follows them
    /// there; `nil` for a body read as it comes.
    private var wholeBody: Data?
    private var uploadOffset = 0
    private var head = ResponseHeadReader()
    private var headDelivered = false
    /// The transfer's deadline; `nil` once traded for the idle one.
    var deadline: ContinuousClock.Instant?
    /// How long the transfer may go without bytes while it is not paused; `nil` until the
    /// reader asks for it.
    var idleTimeout: Duration?
    /// When bytes last arrived, or the transfer last resumed.
    var lastProgress = ContinuousClock.now
    /// The transfer is paused because the reader is behind: the server is not idle.
    var pausedForReader = false

    /// When the transfer fails if nothing happens first: its deadline, or the idle one.
    var expiry: ContinuousClock.Instant? {
      if let deadline { return deadline }
      guard let idleTimeout, !pausedForReader else { return nil }
      return lastProgress + idleTimeout
    }

    private struct Shared {
      var headContinuation: CheckedContinuation<HTTPResponse, any Error>?
      var aborted: FirestoreError?
      var added = false
      var finished = false
      /// The transfer ran to a clean end and is out of the loop: the handle may serve
      /// another request.
      var handleReusable = false
    }
    private let shared = Locked(Shared())

    /// Prepares the easy handle for `request`.
    /// - Throws: `invalidArgument` for a URL that is not `http`/`https` or has no host, or
    ///   a header that would break the request (a line break, a bad name).
    init(request: HTTPRequest, transport: CurlTransport) throws {
      self.transport = transport
      loop = transport.loop
      readsWholeBody = request.readsWholeBody
      wholeBody = request.readsWholeBody ? Data() : nil
      channel = BodyChannel(highWater: request.readsWholeBody ? Self.wholeBodyBuffer : BodyChannel.highWater)
      method = request.method
      isIdempotent = request.isIdempotent
      deadline = request.deadline
      url = request.url
      let target = try transport.prepared.target(of: request.url)
      host = target.host
      defaultPort = target.isHTTPS ? 443 : 80
      guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
        throw FirestoreError(.invalidArgument, "cannot send \(method) \(url.path): invalid request method")
      }
      uploadBody = request.body
      sendsBodyWithHead = request.isIdempotent && (1..<Self.maximumBodyWithHead).contains(request.body?.count ?? 0)
      guard let (easy, fresh) = transport.handles.take() else {
        throw FirestoreError(.resourceExhausted, "libcurl could not create a request handle")
      }
      self.easy = easy
      errorBuffer.initialize(to: 0)
      // On a throw, deinit frees what was made.
      try configure(request, target: target, transport: transport, fresh: fresh)
    }

    deinit {
      if shared.withLock({ $0.handleReusable }) {
        clearRequestOptions()
        transport.handles.put(easy)
      } else {
        curl_easy_cleanup(easy)
      }
      errorBuffer.deallocate()
    }

    /// The most a whole-body read buffers before its head is handed out: a larger reply
    /// reaches its reader as it comes, as any other. The reader gathers it all anyway.
    static let wholeBodyBuffer = 16 << 20

    /// The most bytes one write callback delivers.
    static let receiveBufferBytes = 100 << 10

    /// The options that point into an exchange: its callbacks' data, its error buffer and
    /// its header list.
    private static let requestPointers = [
      CURLOPT_PRIVATE, CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_READDATA, CURLOPT_SEEKDATA, CURLOPT_ERRORBUFFER,
      CURLOPT_HTTPHEADER,
    ]

    /// Leaves the handle as a kept one must be: a plain GET with no body that points at
    /// nothing freed with this exchange, holding only what every request of the transport
    /// shares.
    private func clearRequestOptions() {
      for option in Self.requestPointers { _ = swiftfirestore_curl_setopt_pointer(easy, option, nil) }
      // The body's option first: setting it makes the request a POST again.
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_POSTFIELDS, nil)
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, nil)
      setLong(CURLOPT_HTTPGET, 1)
      setLong(CURLOPT_FRESH_CONNECT, 0)
      setLong(CURLOPT_FORBID_REUSE, 0)
    }

    /// Sets the handle's options for `request`. A `fresh` handle first gets those every
    /// request of the transport shares; a kept one has them (see ``clearRequestOptions()``).
    private func configure(_ request: HTTPRequest, target: CurlPreparedParts.Target, transport: CurlTransport, fresh: Bool) throws {
      let me = Unmanaged.passUnretained(self).toOpaque()
      if fresh {
        setLong(CURLOPT_NOSIGNAL, 1)
        setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        setLong(CURLOPT_PIPEWAIT, 1)
        // Every encoding this libcurl decodes; the body arrives decoded.
        _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_ACCEPT_ENCODING, "")
        setLong(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        setLong(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(transport.connectTimeout))
        setLong(CURLOPT_TCP_NODELAY, 1)
        // The curl tool's receive buffer: a large reply comes in a few pieces, not one per
        // 16 KB (libcurl's default), and each piece is a hand-off to the reading task.
        setLong(CURLOPT_BUFFERSIZE, Self.receiveBufferBytes)
        if let trusted = transport.trustedCertificates {
          _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_CAINFO, trusted)
        }
        if let proxy = transport.proxy {
          _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_PROXY, proxy)
        }
        _ = swiftfirestore_curl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, curlWrite)
        _ = swiftfirestore_curl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, curlHeader)
      }
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_URL, target.address)
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_PRIVATE, me)
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, me)

      // The RPC layer spells methods in capitals already: no new string for those.
      let verb = method.utf8.contains(where: { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) ? method.uppercased() : method
      switch verb {
      case "GET" where request.body == nil: setLong(CURLOPT_HTTPGET, 1)
      case "HEAD": setLong(CURLOPT_NOBODY, 1)
      case "POST": break
      default: _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, method)
      }
      if let body = request.body, sendsBodyWithHead {
        setLong(CURLOPT_POST, 1)
        // The size first: libcurl copies that many bytes (binary data, not a C string).
        _ = swiftfirestore_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        body.withUnsafeBytes { _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
      } else if let body = request.body {
        setLong(CURLOPT_POST, 1)
        _ = swiftfirestore_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        _ = swiftfirestore_curl_setopt_read_function(easy, curlRead)
        _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_READDATA, me)
        _ = swiftfirestore_curl_setopt_seek_function(easy, curlSeek)
        _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_SEEKDATA, me)
      } else if verb == "POST" || verb == "PUT" || verb == "PATCH" {
        setLong(CURLOPT_POST, 1)
        _ = swiftfirestore_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0)
        _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, "")
      }

      let list = try transport.prepared.headerList(for: request.headers)
      if list.closesConnection && !target.isHTTPS {
        setLong(CURLOPT_FRESH_CONNECT, 1)
        setLong(CURLOPT_FORBID_REUSE, 1)
      }
      headerList = list
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, list.first)
    }

    private func setLong(_ option: CURLoption, _ value: Int) {
      _ = swiftfirestore_curl_setopt_long(easy, option, value)
    }

    /// libcurl joins a body to the head's write below 64 KiB (`MAX_INITIAL_POST_SIZE`).
    private static let maximumBodyWithHead = 64 * 1024

    /// The request body bytes that went out: counted by libcurl when it holds the body.
    private var bodyBytesSent: Int {
      guard sendsBodyWithHead else { return uploadOffset }
      var uploaded: curl_off_t = 0
      _ = swiftfirestore_curl_getinfo_offset(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded)
      return Int(uploaded)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
      max(1, Int(duration.saturatingMilliseconds))
    }

    // MARK: - Caller side

    /// Installs the caller's continuation and hands the exchange to the loop.
    func start(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
      let aborted: FirestoreError? = shared.withLock { s in
        if let aborted = s.aborted { return aborted }
        s.headContinuation = continuation
        return nil
      }
      if let aborted {
        continuation.resume(throwing: aborted)
        return
      }
      channel.connect(self)
      loop.post(.add(self))
    }

    /// Aborts the exchange (the caller's task was cancelled, or the reader went away).
    func abort(_ error: FirestoreError) {
      let added = shared.withLock { s -> Bool in
        if s.aborted == nil { s.aborted = error }
        return s.added
      }
      if added {
        loop.post(.abort(self, error))
      } else {
        finish(with: error)
      }
    }

    // MARK: - Loop thread

    /// Whether the loop may add the exchange: it was not aborted before it got there.
    var isStartable: Bool {
      shared.withLock { s in
        guard s.aborted == nil, !s.finished else { return false }
        s.added = true
        return true
      }
    }

    /// Fails the exchange: the caller waiting for the head gets `error`, or the body
    /// reader does. Called once the transfer is out of the loop (or never entered it).
    func finish(with error: FirestoreError) {
      let continuation = shared.withLock { s -> CheckedContinuation<HTTPResponse, any Error>? in
        s.finished = true
        defer { s.headContinuation = nil }
        return s.headContinuation
      }
      continuation?.resume(throwing: error)
      // Also when nobody got the body: ending it drops the producer's hold on this exchange.
      channel.finish(.failure(error))
    }

    /// The transfer ended with `code`.
    func complete(_ code: CURLcode) {
      guard code == CURLE_OK else {
        fail(failure(code))
        return
      }
      guard head.completedStatus != nil else {
        finish(with: failure(CURLE_GOT_NOTHING))
        return
      }
      // Out of the loop and done with: the next request of the transport may take it.
      shared.withLock { s in
        s.finished = true
        s.handleReusable = true
      }
      // The body is complete before the head is handed out: a small reply reaches its
      // reader in one hand-off, not one for the head and more for the body and its end.
      channel.finish()
      deliverHead(ended: true)
    }

    /// Fails a transfer the loop took out or libcurl ended: a head that arrived whole is
    /// handed out first, as it would have been at the end of the round, so that the error
    /// reaches the body's reader, not the caller waiting for the head.
    func fail(_ error: FirestoreError) {
      // The bytes that came reach the reader before the error, as a streamed body's do.
      moveWholeBodyToChannel()
      deliverHead(ended: true)
      finish(with: error)
    }

    /// The error for a deadline that passed.
    func deadlineError() -> FirestoreError {
      if deadline == nil, let idleTimeout {
        return FirestoreError(
          .deadlineExceeded, "\(method) \(path): the server sent nothing for \(idleTimeout)", requestMethod: method, requestPath: path)
      }
      return FirestoreError(.deadlineExceeded, "\(method) \(path) did not finish by its deadline", requestMethod: method, requestPath: path)
    }

    /// What this transfer moved, for the transport's statistics.
    func transferCounts() -> (connections: Int, received: Int, sent: Int, http2: Bool) {
      var connections = 0
      var received: curl_off_t = 0
      var version = 0
      _ = swiftfirestore_curl_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connections)
      _ = swiftfirestore_curl_getinfo_offset(easy, CURLINFO_SIZE_DOWNLOAD_T, &received)
      _ = swiftfirestore_curl_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
      return (connections, Int(received), bodyBytesSent, version == CURL_HTTP_VERSION_2_0)
    }

    /// One header line (or the status line, or the blank line that ends the head). A
    /// complete head is handed out by ``deliverHead()`` once the loop's round is over.
    fileprivate func headerLine(_ bytes: UnsafeRawBufferPointer) {
      if head.append(bytes) {
        let reservation = HTTPResponse.reservation(announcedIn: head.headers, limit: channel.highWater)
        if wholeBody != nil {
          wholeBody = Data(capacity: reservation)
        } else {
          channel.expect(reservation)
        }
      }
    }

    /// Body bytes; `false` when the reader is behind and the transfer must pause.
    fileprivate func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
      if idleTimeout != nil { lastProgress = .now }
      if let kept = wholeBody?.count {
        if kept + bytes.count <= Self.wholeBodyBuffer {
          guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
          wholeBody?.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
          return true
        }
        moveWholeBodyToChannel()
      }
      let taken = channel.offer(bytes)
      pausedForReader = !taken
      return taken
    }

    /// Moves a whole-body read's bytes into the channel, which takes the rest of the body.
    private func moveWholeBodyToChannel() {
      guard let kept = wholeBody else { return }
      wholeBody = nil
      // The channel is empty, so it takes them all, however many.
      kept.withUnsafeBytes { _ = channel.offer($0) }
    }

    /// Copies the next piece of the request body into `buffer`.
    fileprivate func uploadBytes(into buffer: UnsafeMutableRawBufferPointer) -> Int {
      guard let body = uploadBody else { return 0 }
      let count = min(buffer.count, body.count - uploadOffset)
      guard count > 0 else { return 0 }
      body.withUnsafeBytes { source in
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[uploadOffset..<uploadOffset + count]))
      }
      uploadOffset += count
      return count
    }

    /// libcurl wants to send the body again from `offset` (a reused connection died before
    /// the reply). A request that is not idempotent and whose body went out whole may have
    /// been applied: it is not sent twice.
    fileprivate func rewind(to offset: Int) -> Bool {
      if !isIdempotent, let body = uploadBody, uploadOffset == body.count { return false }
      uploadOffset = offset
      return true
    }

    /// Hands the response head to the caller, once, when it is complete. The loop calls it
    /// after each round of I/O, so that the body that came with the head is buffered first;
    /// a whole-body read waits until the transfer `ended` or its buffer is full.
    func deliverHead(ended: Bool = false) {
      guard !headDelivered, let status = head.completedStatus else { return }
      if readsWholeBody, !ended, wholeBody != nil || !channel.isPaused { return }
      headDelivered = true
      // A body that ended whole goes out as data: its reader takes it with no channel to
      // wait on. Otherwise the reader's hold on the channel aborts the transfer when the
      // reader drops the body before its end. (A failed transfer moved its bytes into the
      // channel before it came here.)
      var body: HTTPBody?
      if readsWholeBody && ended {
        body = (wholeBody ?? channel.takeWholeBody()).map(HTTPBody.init)
        wholeBody = nil
      }
      // Made before the lock that hands out the continuation is released, so that the
      // caller, taking that lock again once it has the response (``headTaken()``), is
      // ordered after the making in a way ThreadSanitizer sees.
      let response = HTTPResponse(status: status, headers: head.headers, body: body ?? HTTPBody(channel: channel))
      let continuation = shared.withLock { s -> CheckedContinuation<HTTPResponse, any Error>? in
        defer { s.headContinuation = nil }
        return s.headContinuation
      }
      guard let continuation else {
        // Nobody waits for the head any more: the transfer has nobody to read it either.
        withExtendedLifetime(response) { channel.abort(FirestoreError(.cancelled, "the request was cancelled")) }
        return
      }
      continuation.resume(returning: response)
    }

    /// The caller has the response head: it takes the lock the loop released after making
    /// the response. The continuation's resume orders the two already, but ThreadSanitizer
    /// does not see that order when the caller then goes on to an actor, and reports the
    /// response's objects as raced (Swift 6.3.1 on Linux, shown by a program of a thread,
    /// a continuation and an actor alone); the lock's order it sees.
    func headTaken() {
      shared.withLock { _ in }
    }

    /// The ``FirestoreError`` for a transfer that ended with `code`.
    private func failure(_ code: CURLcode) -> FirestoreError {
      let detail = errorBuffer.pointee == 0 ? String(cString: curl_easy_strerror(code)) : String(cString: errorBuffer)
      let sent = bodyBytesSent
      var bodyComplete = uploadBody.map { sent == $0.count } ?? true
      var requestSize = 0
      _ = swiftfirestore_curl_getinfo_long(easy, CURLINFO_REQUEST_SIZE, &requestSize)
      if requestSize == 0 { bodyComplete = false }
      let failure = CurlFailure(
        code: code, detail: detail, host: host, endpoint: endpoint, headStarted: head.started, headComplete: head.completedStatus != nil,
        requestWentOut: bodyComplete)
      // libcurl's message may quote the proxy URL, password and all.
      return SecretRedaction(secrets: transport.proxyCredentials).scrub(
        FirestoreError(failure.code, failure.message, requestMethod: method, requestPath: path)
      ).with { $0.requestNotSent = failure.requestNotSent }
    }
  }

  // What the body's reader asks of the transfer goes to the loop thread, which alone
  // touches the handle.
  extension CurlExchange: BodyChannel.Producer {
    func resumeTransfer() { loop.post(.resume(self)) }
    func abortTransfer(_ error: FirestoreError) { loop.post(.abort(self, error)) }
    func keepIdleDeadline(_ idle: Duration) { loop.post(.idleDeadline(self, idle)) }
  }

  // The C callbacks: `userdata` is the exchange, kept alive by the loop while it runs.

  private let curlWrite: curl_write_callback = { pointer, size, count, userdata in
    guard let userdata else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: pointer, count: size * count)
    return exchange.bodyBytes(bytes) ? size * count : swiftfirestore_CURL_WRITEFUNC_PAUSE
  }

  private let curlHeader: curl_write_callback = { pointer, size, count, userdata in
    guard let userdata else { return 0 }
    Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue().headerLine(
      UnsafeRawBufferPointer(start: pointer, count: size * count))
    return size * count
  }

  private let curlRead: curl_read_callback = { pointer, size, count, userdata in
    guard let userdata, let pointer else { return swiftfirestore_CURL_READFUNC_ABORT }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue()
    return exchange.uploadBytes(into: UnsafeMutableRawBufferPointer(start: pointer, count: size * count))
  }

  private let curlSeek: curl_seek_callback = { userdata, offset, origin in
    guard let userdata, origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue()
    return exchange.rewind(to: Int(offset)) ? Int32(CURL_SEEKFUNC_OK) : Int32(CURL_SEEKFUNC_FAIL)
  }
#endif
