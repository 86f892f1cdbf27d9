import CZlib
import HTTP1Server

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Serves one accepted connection on its own thread: reads requests one after another
/// (pipelined ones included), applies the injected faults, runs the handler and writes
/// each response before reading the next request.
final class HTTPConnection {
  /// What to do with the connection after one request.
  private enum Outcome {
    /// Read the next request.
    case keepOpen
    /// Half-close, discard what the client still sends for a moment, then close.
    case closeGracefully
    /// Close at once (peer gone, idle timeout, server stopping).
    case closeQuietly
  }

  private let fd: Int32
  private let runtime: MockHTTPServerRuntime
  private var reader: HTTPRequestReader<HTTPSocketSource>
  private var configuration: MockHTTPServerConfiguration { runtime.configuration }

  init(fd: Int32, runtime: MockHTTPServerRuntime) {
    self.fd = fd
    self.runtime = runtime
    self.reader = HTTPRequestReader(
      source: HTTPSocketSource(fd: fd, wake: runtime.wakeRead, timeoutMilliseconds: runtime.configuration.idleTimeoutMilliseconds),
      limits: runtime.configuration.requestLimits)
  }

  /// Serves requests until the connection ends. The caller closes the descriptor.
  func run() {
    var outcome = Outcome.keepOpen
    while outcome == .keepOpen {
      outcome = serveOne()
    }
    if outcome == .closeGracefully { lingeringClose() }
  }

  private func serveOne() -> Outcome {
    let head: HTTPRequestHead
    do {
      head = try reader.readHead()
    } catch let error as HTTPRequestError {
      return reject(error, head: nil)
    } catch {
      return .closeQuietly
    }

    let body: [UInt8]
    do {
      let framing = try reader.framing(of: head)
      // libcurl holds back bodies over 1 MiB until it sees this (or a 1 s timeout).
      if head.expectsContinue && framing != .none {
        guard HTTPSocket.sendAll(fd, HTTPResponseHead.continueBytes[...]) else { return .closeQuietly }
      }
      body = try reader.readBody(framing)
    } catch let error as HTTPRequestError {
      return reject(error, head: head)
    } catch {
      return .closeQuietly
    }

    // Taken before the faults are picked: see ``MockHTTPRequest/arrival``.
    var request = MockHTTPRequest(
      method: head.method, rawPath: head.rawPath, path: head.path, query: head.query, headers: head.headers, body: body, arrival: .now)
    let exempt = configuration.faultExemptPathPrefix.map { request.path.hasPrefix($0) } ?? false
    let faults = exempt ? [] : runtime.faults.consumeFaults(method: request.method, path: request.path, query: head.rawQuery)
    request.faults = faults
    let plan = FaultPlan(faults)
    let logID = runtime.log.begin(
      method: request.method, path: request.path, query: head.rawQuery, headers: request.headers, bodySize: body.count, faults: faults)

    if plan.latencyMilliseconds > 0 {
      guard HTTPSocket.sleep(milliseconds: plan.latencyMilliseconds, wake: runtime.wakeRead) else { return .closeQuietly }
    }
    for name in plan.holds {
      runtime.faults.arrive(at: name)
      // Polled: the connection's thread has nothing else to do, and a stop must still end it.
      while !runtime.faults.isReleased(name) {
        guard HTTPSocket.sleep(milliseconds: 2, wake: runtime.wakeRead) else { return .closeQuietly }
      }
    }
    if plan.stall {
      HTTPSocket.waitForStopOrHangup(fd, wake: runtime.wakeRead, timeoutMilliseconds: configuration.stallLimitMilliseconds)
      return .closeQuietly
    }
    var response: MockHTTPResponse
    if let replacement = plan.replacement {
      response = replacement
    } else {
      response = runtime.handler(request)
    }
    runtime.log.setStatus(response.status, of: logID)
    // A response a fault cuts goes out uncompressed, so that the cut falls where the fault
    // says in the body the handler wrote.
    response = plan.closesConnection ? response : compressed(response, for: head.headers, logID: logID)

    let keepAlive = head.wantsKeepAlive && !head.hasConflictingFraming && !plan.closesConnection && !runtime.isStopping
    return write(response, method: head.method, minorVersion: head.minorVersion, keepAlive: keepAlive, plan: plan)
  }

  /// The response with its body gzip-compressed when the client accepts gzip and the body
  /// is worth it (a JSON stream, or a complete body of ``Gzip/minimumBytes`` or more), as
  /// Google's front ends answer; the size sent goes to the request log. Listen channel
  /// replies (`text/plain`) are left as they are.
  private func compressed(_ response: MockHTTPResponse, for requestHeaders: [(name: String, value: String)], logID: Int)
    -> MockHTTPResponse
  {
    let log = runtime.log
    // Computed only for the bodies that could be compressed: most replies are small, and
    // reading the headers (with Foundation's string search) cost more than serving them.
    var accepted: Bool {
      Gzip.isAccepted(requestHeaders) && !response.headers.contains(where: { HTTPResponseHead.isNamed($0.name, "content-encoding") })
    }
    var json: Bool { response.headers.contains { HTTPResponseHead.isNamed($0.name, "content-type") && $0.value.contains("json") } }
    // Made only for a body that is compressed: most are not.
    var compressed: MockHTTPResponse {
      var compressed = response
      compressed.headers += [("content-encoding", "gzip"), ("vary", "Accept-Encoding")]
      return compressed
    }
    switch response.body {
    case .complete(let bytes):
      guard bytes.count >= Gzip.minimumBytes, accepted, let gzipped = Gzip.compress(bytes) else {
        log.setResponseBody(size: bytes.count, encoding: nil, of: logID)
        return response
      }
      log.setResponseBody(size: gzipped.count, encoding: "gzip", of: logID)
      var gzippedResponse = compressed
      gzippedResponse.body = .complete(gzipped)
      return gzippedResponse
    case .streaming(let produce):
      guard accepted, json else { return response }
      var gzippedResponse = compressed
      gzippedResponse.body = .streaming { writer in
        guard let gzip = Gzip() else { throw Gzip.GzipError(status: Z_MEM_ERROR) }
        let compressing = Gzip.Writer(base: writer, gzip: gzip, sent: Gzip.Writer.Counter())
        try produce(compressing)
        try compressing.finish()
        log.setResponseBody(size: compressing.sent.bytes, encoding: "gzip", of: logID)
      }
      return gzippedResponse
    }
  }

  /// Answers a request the server itself refuses, then ends the connection.
  private func reject(_ error: HTTPRequestError, head: HTTPRequestHead?) -> Outcome {
    if let head {
      _ = runtime.log.begin(
        method: head.method, path: head.path, query: head.rawQuery, headers: head.headers, bodySize: 0, faults: [], status: error.status)
    }
    let response = Self.errorResponse(status: error.status, grpcStatus: error.grpcStatus, message: error.message)
    _ = write(response, method: head?.method ?? "GET", minorVersion: head?.minorVersion ?? 1, keepAlive: false, plan: nil)
    return .closeGracefully
  }

  /// Writes a response; returns whether the connection can serve another request.
  private func write(_ response: MockHTTPResponse, method: String, minorVersion: Int, keepAlive: Bool, plan: FaultPlan?) -> Outcome {
    let status = response.status
    let bodiless = method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304
    var keepAlive = keepAlive
    if response.headers.contains(where: { HTTPResponseHead.isNamed($0.name, "connection") && $0.value.lowercased().contains("close") }) {
      keepAlive = false
    }
    do {
      switch response.body {
      case .complete(let bytes):
        let framing: (String, String)? =
          (status == 204 || status == 304 || (100..<200).contains(status)) ? nil : ("content-length", "\(bytes.count)")
        let head = headBytes(response, framing: framing, keepAlive: keepAlive, minorVersion: minorVersion)
        let sink = HTTPResponseSink(fd: fd, framing: .contentLength, plan: plan)
        try sink.sendComplete(head: head, body: bodiless ? [] : bytes)
      case .streaming(let produce):
        if bodiless {
          let framing: (String, String)? = method == "HEAD" && minorVersion >= 1 ? ("transfer-encoding", "chunked") : nil
          let sink = HTTPResponseSink(fd: fd, framing: .none, plan: plan)
          try sink.sendHead(headBytes(response, framing: framing, keepAlive: keepAlive, minorVersion: minorVersion))
        } else if minorVersion >= 1 {
          let sink = HTTPResponseSink(fd: fd, framing: .chunked, plan: plan)
          try sink.sendHead(
            headBytes(response, framing: ("transfer-encoding", "chunked"), keepAlive: keepAlive, minorVersion: minorVersion))
          try produce(sink)
          try sink.finish()
        } else {
          // HTTP/1.0 has no chunking: the body ends when the connection does.
          keepAlive = false
          let sink = HTTPResponseSink(fd: fd, framing: .untilClose, plan: plan)
          try sink.sendHead(headBytes(response, framing: nil, keepAlive: false, minorVersion: minorVersion))
          try produce(sink)
          try sink.finish()
        }
      }
    } catch HTTPResponseSink.Interruption.connectionLost {
      return .closeQuietly
    } catch {
      // A fault cut the response, or the streaming handler threw: the body is incomplete.
      return .closeGracefully
    }
    return keepAlive && !response.closesConnectionSilently ? .keepOpen : .closeGracefully
  }

  private func headBytes(_ response: MockHTTPResponse, framing: (String, String)?, keepAlive: Bool, minorVersion: Int) -> [UInt8] {
    let connection: String?
    if !keepAlive {
      connection = "close"
    } else {
      connection = minorVersion == 0 ? "keep-alive" : nil
    }
    return HTTPResponseHead.bytes(status: response.status, headers: response.headers, framing: framing, connection: connection)
  }

  /// Half-closes, then reads and discards until the client closes or the linger time is
  /// up: closing with unread input would send a reset that can destroy the response
  /// before the client reads it.
  private func lingeringClose() {
    shutdown(fd, Int32(SHUT_WR))
    let deadline = ContinuousClock.now + .milliseconds(configuration.lingerMilliseconds)
    var discard = [UInt8](repeating: 0, count: 16 * 1024)
    while ContinuousClock.now < deadline {
      let left = ContinuousClock.now.duration(to: deadline)
      let ms = Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000) + 1
      guard HTTPSocket.waitReadable(fd, wake: runtime.wakeRead, timeoutMilliseconds: ms) == .readable else { return }
      let fd = self.fd
      let received = discard.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if received == 0 || (received < 0 && errno != EINTR) { return }
    }
  }

  /// A Firestore-style JSON error response.
  static func errorResponse(status: Int, grpcStatus: String, message: String) -> MockHTTPResponse {
    .json(
      status,
      .object([("error", .object([("code", .integer(Int64(status))), ("message", .string(message)), ("status", .string(grpcStatus))]))]))
  }
}
