/// One parsed HTTP/1.1 request as the mock server's handlers see it.
public struct MockHTTPRequest: Sendable {
  /// The method, upper case (`GET`, `POST`, …).
  public var method: String
  /// The request target's path as sent (still percent-encoded).
  public var rawPath: String
  /// The path, percent-decoded.
  public var path: String
  /// Query parameters in order, percent-decoded (`+` stays `+`); names may repeat.
  public var query: [(name: String, value: String)]
  /// Header fields in order, names lower-cased.
  public var headers: [(name: String, value: String)]
  /// The body (de-chunked when it was sent chunked).
  public var body: [UInt8]
  /// The injected faults the server picked for this request (it applies most of them
  /// itself; handlers act on the ones only they can apply, such as
  /// ``Fault/dropAfterFrames(_:)``).
  public var faults: [Fault]
  /// When the server had read the request, before it picked its faults: a call that ends
  /// the requests under way (``MockFirestoreServer/endListenBackChannels()``) ends the ones
  /// that arrived before it, however late their thread gets to them.
  public var arrival: ContinuousClock.Instant

  /// Creates a request.
  public init(
    method: String, rawPath: String, path: String, query: [(name: String, value: String)] = [],
    headers: [(name: String, value: String)] = [], body: [UInt8] = [], faults: [Fault] = [], arrival: ContinuousClock.Instant = .now
  ) {
    self.faults = faults
    self.arrival = arrival
    self.method = method
    self.rawPath = rawPath
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
  }

  /// The first value of a header (name compared case-insensitively).
  public func header(_ name: String) -> String? {
    let lower = name.lowercased()
    return headers.first { $0.name == lower }?.value
  }

  /// Every value of a query parameter, in order.
  public func queryValues(_ name: String) -> [String] {
    query.filter { $0.name == name }.map(\.value)
  }

  /// The first value of a query parameter.
  public func queryValue(_ name: String) -> String? { queryValues(name).first }
}
