import FirestoreWire
import Foundation

/// Reads the elements of a streamed JSON-array reply (`:runQuery`) one at a time, turning
/// every way the body can go wrong into a ``FirestoreError`` that names it.
///
/// Memory and time stay bounded whatever the server sends: an element, and all the reader
/// holds at once, stay within ``FirestoreSettings/maximumReplyBytes`` (counted as the bytes
/// arrive, after decompression, before they are kept), and once ``keepIdleDeadline()``
/// was called a wait for bytes, or for the next element, lasts at most
/// ``FirestoreSettings/timeout``.
///
/// `@unchecked Sendable`: the reader is used by one task at a time — the attempt that reads
/// the first element hands it over, once finished, to the task that reads the rest.
final class JSONArrayReader<Element: Sendable>: @unchecked Sendable {
  private let response: HTTPResponse
  /// Reads one element from its bytes.
  private let decode: @Sendable (UnsafeBufferPointer<UInt8>) throws -> Element
  private let call: RESTClient.Call
  private let client: RESTClient
  /// What the request carried that its errors must not show (its token): an error after
  /// the first element no longer passes through the call's own redaction.
  private let redaction: SecretRedaction
  private var body: HTTPBody.AsyncIterator
  private var splitter: JSONArrayStreamSplitter
  private var pending: [[UInt8]] = []
  /// The bytes of `pending`, for the limit on what the reader holds.
  private var pendingBytes = 0
  private let limit: Int
  /// The longest wait for the next element, once the call's deadline is over.
  private var idle: Duration?
  /// The transport keeps the idle deadline between bytes; else the reader races each wait.
  private var transportKeepsIdle = false
  private var bodyEnded = false
  /// The body's first bytes and size so far, for error messages.
  private var start: [UInt8] = []
  private var size = 0

  init(
    response: HTTPResponse, call: RESTClient.Call, client: RESTClient, redaction: SecretRedaction,
    decode: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws -> Element
  ) {
    self.response = response
    self.redaction = redaction
    self.decode = decode
    self.call = call
    self.client = client
    limit = client.settings.maximumReplyBytes
    splitter = JSONArrayStreamSplitter(maximumElementBytes: limit)
    body = response.body.makeAsyncIterator()
  }

  /// Trades the call's deadline for idle ones of ``FirestoreSettings/timeout``: between
  /// bytes (kept by the transport where it can) and between elements.
  func keepIdleDeadline() {
    let timeout = client.settings.timeout
    idle = timeout
    transportKeepsIdle = response.body.keepIdleDeadline(timeout)
  }

  /// The next element, or `nil` after the closing `]`.
  ///
  /// - Throws: what the transport threw when the connection broke (`unavailable`);
  ///   `unavailable` when the body ends before its closing `]` (cut short); `internal` when
  ///   it is not a JSON array of valid JSON (an empty body, another content type, an object,
  ///   text that does not parse).
  func next() async throws -> Element? {
    do {
      if pending.isEmpty, let idle, !transportKeepsIdle {
        // Nothing would end a silent body: the wait for the element is raced here.
        let expired = idleExpired(idle)
        return try await Deadline.run(idle, expired: expired) { try await self.nextElement(waitingSince: nil) }
      }
      return try await nextElement(waitingSince: idle == nil ? nil : ContinuousClock.now)
    } catch let error as FirestoreError {
      throw redaction.scrub(error)
    }
  }

  /// The next element; past `idle` after `waitingSince` a chunk that completes none fails.
  private func nextElement(waitingSince: ContinuousClock.Instant?) async throws -> Element? {
    while true {
      if !pending.isEmpty {
        let element = pending.removeFirst()
        pendingBytes -= element.count
        do {
          return try element.withUnsafeBufferPointer { try decode($0) }
        } catch let error as WireFormatError {
          throw malformed(cutShort: false, detail: error)
        }
      }
      if bodyEnded { return try end() }
      let chunk: Data?
      do {
        chunk = try await body.next()
      } catch let error as FirestoreError {
        throw error
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        throw FirestoreError(
          .unavailable, "the reply broke off: \(error)", httpStatus: response.status, requestMethod: call.method,
          requestPath: client.urlPath(call))
      }
      guard let chunk else {
        bodyEnded = true
        continue
      }
      if start.count < ReplyProblem.excerptBytes { start += chunk.prefix(ReplyProblem.excerptBytes - start.count) }
      size += chunk.count
      do {
        pending = try splitter.append(chunk)
      } catch let error as WireFormatError {
        throw malformed(cutShort: false, detail: error)
      } catch {
        throw tooLarge("an element of the reply")
      }
      pendingBytes = pending.reduce(0) { $0 + $1.count }
      if pendingBytes + splitter.bufferedBytes > limit { throw tooLarge("the reply's elements read at once") }
      // Bytes that trickle in without completing an element do not keep the read alive.
      if pending.isEmpty, let waitingSince, let idle, ContinuousClock.now - waitingSince > idle {
        throw idleExpired(idle)
      }
    }
  }

  /// The error for a wait for the next element that lasted longer than `idle`.
  private func idleExpired(_ idle: Duration) -> FirestoreError {
    FirestoreError(
      .deadlineExceeded,
      "\(call.method) \(client.urlPath(call)): the next element of the reply did not arrive within \(idle) (FirestoreSettings.timeout)",
      httpStatus: response.status, requestMethod: call.method, requestPath: client.urlPath(call))
  }

  /// The error for a reply past the limit, `what` naming the part of it.
  private func tooLarge(_ what: String) -> FirestoreError {
    HTTPResponse.bodyTooLarge(limit: limit, what: what).with {
      $0.httpStatus = response.status
      $0.requestMethod = call.method
      $0.requestPath = client.urlPath(call)
    }
  }

  /// The body ended: fine after the closing `]`, else the reply is cut short or not an array.
  private func end() throws -> Element? {
    if splitter.leadingObject != nil {
      throw malformed(cutShort: false, detail: WireFormatError("the reply is a JSON object, not the JSON array expected"))
    }
    guard splitter.isFinished else {
      let error = malformed(cutShort: true, detail: nil)
      guard error.canonicalCode == .unavailable else { throw error }
      throw error.with { $0.message = "the reply ended before the closing \"]\" of its JSON array: " + $0.message }
    }
    return nil
  }

  private func malformed(cutShort: Bool, detail: WireFormatError?) -> FirestoreError {
    client.malformedReply(call, response, start: start, size: size, cutShort: cutShort, detail: detail)
  }
}
