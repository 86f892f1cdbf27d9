import HTTP1Server

/// Limits and timeouts of a ``MockHTTPServer``; the public `start` uses the defaults, tests
/// shorten them.
struct MockHTTPServerConfiguration: Sendable {
  /// How much of a request is read before it is refused.
  var requestLimits = HTTPRequestLimits()
  /// Largest request body; see ``HTTPRequestLimits``.
  var maximumBodyBytes: Int {
    get { requestLimits.maximumBodyBytes }
    set { requestLimits.maximumBodyBytes = newValue }
  }
  /// Largest request head; see ``HTTPRequestLimits``.
  var maximumHeadBytes: Int {
    get { requestLimits.maximumHeadBytes }
    set { requestLimits.maximumHeadBytes = newValue }
  }
  /// How long a connection may be silent (between or within requests) before it is closed.
  var idleTimeoutMilliseconds = 120_000
  /// How long one blocked send may take before the client counts as gone.
  var sendTimeoutSeconds = 120
  /// How long a stall fault holds a request at most.
  var stallLimitMilliseconds = 300_000
  /// How long ``MockHTTPServer/stop()`` waits for connection threads (a handler that never
  /// returns cannot be interrupted).
  var stopTimeoutMilliseconds = 10_000
  /// After a response that ends the connection, how long to keep reading (and discarding)
  /// so that unread client data does not turn the close into a reset that loses the response.
  var lingerMilliseconds = 2_000
  /// Requests whose decoded path starts with this get no injected faults: the mock's admin
  /// endpoints must stay reachable under a catch-all rule.
  var faultExemptPathPrefix: String? = "/mock/"
  /// The listen backlog; 200 clients connecting at once must not be refused.
  var listenBacklog: Int32 = 1024
}
