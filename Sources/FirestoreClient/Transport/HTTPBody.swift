import FirestoreWire
import Foundation

/// The body of an ``HTTPResponse``, chunk by chunk, as it arrives.
///
/// A body from ``CurlTransport`` holds a bounded buffer: when the reader falls behind, the
/// transfer pauses until the reader catches up, so a large response costs a few megabytes
/// however slowly it is consumed. Dropping the body (or the response) before its end, or
/// cancelling the task that reads it, aborts the transfer.
///
/// Test doubles and other transports make one from complete data or from a stream.
public struct HTTPBody: AsyncSequence, Sendable {
  public typealias Element = Data

  private enum Source: Sendable {
    /// Complete before it is read: handed out as one chunk, with no stream to run.
    case whole(Data)
    case stream(AsyncThrowingStream<Data, any Error>)
    case channel(BodyChannel.Reader)
  }

  private let source: Source
  /// Called with each chunk as the reader takes it.
  private let observer: (@Sendable (Data) -> Void)?

  private init(source: Source, observer: (@Sendable (Data) -> Void)?) {
    self.source = source
    self.observer = observer
  }

  /// A body that yields what `stream` yields.
  public init(_ stream: AsyncThrowingStream<Data, any Error>) {
    self.init(source: .stream(stream), observer: nil)
  }

  /// A body that is already complete.
  public init(_ data: Data) {
    self.init(source: .whole(data), observer: nil)
  }

  /// A body fed by a transport through `channel`.
  init(channel: BodyChannel) {
    self.init(source: .channel(BodyChannel.Reader(channel)), observer: nil)
  }

  /// The same body, with `observe` called on each chunk as the reader takes it (to count
  /// bytes, say); no chunk is read ahead.
  public func observingChunks(_ observe: @escaping @Sendable (Data) -> Void) -> HTTPBody {
    let previous = observer
    return HTTPBody(
      source: source,
      observer: { chunk in
        previous?(chunk)
        observe(chunk)
      })
  }

  /// Has the transport trade its deadline for an idle one for the rest of the body (a
  /// stream that may run long once its first element arrived): the transfer fails with
  /// `deadlineExceeded` when no bytes arrive for `idle` while it is not paused for the
  /// reader. `false` for a body that is not fed by a transport's channel: its reader keeps
  /// the idle deadline itself.
  func keepIdleDeadline(_ idle: Duration) -> Bool {
    guard case .channel(let reader) = source else { return false }
    reader.channel.keepIdleDeadline(idle)
    return true
  }

  /// Whether the transport paused the transfer because the reader is behind (for tests);
  /// `false` for a body that is not fed by a transport's channel.
  var transferIsPaused: Bool {
    if case .channel(let reader) = source { return reader.channel.isPaused }
    return false
  }

  /// Whether the whole body arrived before it was handed out, nothing read yet (for
  /// tests); `false` for a body that streams.
  var arrivedWhole: Bool {
    switch source {
    case .whole: return true
    case .stream: return false
    case .channel(let reader): return reader.channel.holdsWholeBody
    }
  }

  /// The body, when it was complete before it was handed out and nobody observes its
  /// chunks: a reader that wants all of it takes it as it is.
  var completeData: Data? {
    guard observer == nil, case .whole(let data) = source else { return nil }
    return data
  }

  public func makeAsyncIterator() -> AsyncIterator {
    switch source {
    case .whole(let data): return AsyncIterator(whole: data.isEmpty ? nil : data, stream: nil, reader: nil, observer: observer)
    case .stream(let stream): return AsyncIterator(stream: stream.makeAsyncIterator(), reader: nil, observer: observer)
    case .channel(let reader): return AsyncIterator(stream: nil, reader: reader, observer: observer)
    }
  }

  /// Reads the body's chunks.
  public struct AsyncIterator: AsyncIteratorProtocol {
    /// A complete body's one chunk, until it is read.
    var whole: Data? = nil
    var stream: AsyncThrowingStream<Data, any Error>.AsyncIterator?
    let reader: BodyChannel.Reader?
    let observer: (@Sendable (Data) -> Void)?

    /// The next chunk, or `nil` at the end of the body.
    public mutating func next() async throws -> Data? {
      let chunk: Data?
      if let reader {
        chunk = try await reader.channel.next()
      } else if let data = whole {
        whole = nil
        chunk = data
      } else {
        chunk = try await stream?.next()
      }
      if let chunk, let observer { observer(chunk) }
      return chunk
    }
  }
}
