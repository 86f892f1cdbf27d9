import FirestorePlatform

#if canImport(Darwin)
  import FirestoreWire
  import Foundation

  /// A ``Transport`` on URLSession, the default on Apple platforms, with keep-alive
  /// connections and bodies streamed through a data delegate.
  ///
  /// One instance keeps one URLSession; share it. Cancelling the calling task cancels the
  /// request. Failures to connect become `unavailable`, idle time-outs `deadlineExceeded`.
  public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let delegate: Delegate

    /// The transport shared by every ``Firestore`` instance that has no transport of its own.
    public static let shared = URLSessionTransport()

    /// Creates a transport with its own URLSession.
    /// - Parameter maximumConnectionsPerHost: how many keep-alive connections to open to one host.
    public init(maximumConnectionsPerHost: Int = 8) {
      let configuration = URLSessionConfiguration.default
      configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      configuration.urlCache = nil
      configuration.httpCookieStorage = nil
      configuration.timeoutIntervalForResource = 7 * 24 * 3600
      delegate = Delegate()
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      var urlRequest = URLRequest(url: request.url)
      urlRequest.httpMethod = request.method
      for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
      urlRequest.httpBody = request.body
      // The caller enforces the overall deadline; this only bounds silence on the socket.
      urlRequest.timeoutInterval = 3600
      let task = session.dataTask(with: urlRequest)
      let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
      continuation.onTermination = { termination in
        if case .cancelled = termination { task.cancel() }
      }
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (head: CheckedContinuation<HTTPResponse, any Error>) in
          delegate.register(task.taskIdentifier, head: head, body: continuation, stream: stream)
          task.resume()
        }
      } onCancel: {
        task.cancel()
      }
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
      struct Entry {
        var head: CheckedContinuation<HTTPResponse, any Error>?
        var body: AsyncThrowingStream<Data, any Error>.Continuation
        var stream: AsyncThrowingStream<Data, any Error>?
      }

      private let entries = Locked<[Int: Entry]>([:])

      func register(
        _ id: Int, head: CheckedContinuation<HTTPResponse, any Error>, body: AsyncThrowingStream<Data, any Error>.Continuation,
        stream: AsyncThrowingStream<Data, any Error>
      ) {
        entries.withLock { $0[id] = Entry(head: head, body: body, stream: stream) }
      }

      func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
      ) {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (k, v) in http?.allHeaderFields ?? [:] {
          if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
        }
        let taken = entries.withLock { entries -> (CheckedContinuation<HTTPResponse, any Error>, AsyncThrowingStream<Data, any Error>)? in
          guard let entry = entries[dataTask.taskIdentifier], let head = entry.head, let stream = entry.stream else { return nil }
          entries[dataTask.taskIdentifier]?.head = nil
          entries[dataTask.taskIdentifier]?.stream = nil
          return (head, stream)
        }
        taken?.0.resume(returning: HTTPResponse(status: http?.statusCode ?? 0, headers: headers, body: taken!.1))
        completionHandler(.allow)
      }

      func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let body = entries.withLock { $0[dataTask.taskIdentifier]?.body }
        body?.yield(data)
      }

      func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let mapped = error.map { Self.map($0, request: task.originalRequest) }
        if let head = entry.head {
          head.resume(throwing: mapped ?? FirestoreError(.unavailable, "connection closed before a response arrived"))
        }
        if let mapped {
          entry.body.finish(throwing: mapped)
        } else {
          entry.body.finish()
        }
      }

      static func map(_ error: any Error, request: URLRequest?) -> FirestoreError {
        let method = request?.httpMethod
        let path = request?.url?.path
        guard let urlError = error as? URLError else {
          return FirestoreError(.unavailable, "network error: \(error)", requestMethod: method, requestPath: path)
        }
        let code: FirestoreError.Code
        let message: String
        var notSent = false
        switch urlError.code {
        case .cancelled:
          (code, message) = (.cancelled, "the request was cancelled")
        case .timedOut:
          (code, message) = (.deadlineExceeded, "the request timed out")
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
          (code, message) = (.unavailable, "cannot connect to \(request?.url?.host ?? "host"): \(urlError.localizedDescription)")
          notSent = true
        default:
          (code, message) = (.unavailable, "network error: \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
        }
        return FirestoreError(code, message, requestMethod: method, requestPath: path, underlyingError: urlError).with {
          $0.requestNotSent = notSent
        }
      }
    }
  }
#endif
