import FirestoreWire
import Foundation

/// Reads the elements of a streamed JSON-array reply (`:runQuery`) one at a time, turning
/// every way the body can go wrong into a ``FirestoreError`` that names it.
///
/// `@unchecked Sendable`: the reader is used by one task at a time — the attempt that reads
/// the first element hands it over, once finished, to the task that reads the rest.
final class JSONArrayReader<Element: Sendable>: @unchecked Sendable {
  private let response: HTTPResponse
  /// Reads one element from its bytes.
  private let decode: @Sendable (UnsafeBufferPointer<UInt8>) throws -> Element
  private let call: RESTClient.Call
  private let client: RESTClient
  private var body: HTTPBody.AsyncIterator
  private var splitter = JSONArrayStreamSplitter()
  private var pending: [[UInt8]] = []
  private var bodyEnded = false
  /// The body's first bytes and size so far, for error messages.
  private var start: [UInt8] = []
  private var size = 0

  init(
    response: HTTPResponse, call: RESTClient.Call, client: RESTClient,
    decode: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws -> Element
  ) {
    self.response = response
    self.decode = decode
    self.call = call
    self.client = client
    body = response.body.makeAsyncIterator()
  }

  /// The next element, or `nil` after the closing `]`.
  ///
  /// - Throws: what the transport threw when the connection broke (`unavailable`);
  ///   `unavailable` when the body ends before its closing `]` (cut short); `internal` when
  ///   it is not a JSON array of valid JSON (an empty body, another content type, an object,
  ///   text that does not parse).
  func next() async throws -> Element? {
    while true {
      if !pending.isEmpty {
        let element = pending.removeFirst()
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
      }
    }
  }

  /// The body ended: fine after the closing `]`, else the reply is cut short or not an array.
  private func end() throws -> Element? {
    if splitter.leadingObject != nil {
      throw malformed(cutShort: false, detail: WireFormatError("the reply is a JSON object, not the JSON array expected"))
    }
    guard splitter.isFinished else {
      var error = malformed(cutShort: true, detail: nil)
      if error.code == .unavailable {
        error.message = "the reply ended before the closing \"]\" of its JSON array: " + error.message
      }
      throw error
    }
    return nil
  }

  private func malformed(cutShort: Bool, detail: WireFormatError?) -> FirestoreError {
    client.malformedReply(call, response, start: start, size: size, cutShort: cutShort, detail: detail)
  }
}
