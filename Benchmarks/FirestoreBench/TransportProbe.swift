import BenchmarkSupport
import FirestoreClient
import Foundation

/// The transport's share of a scenario: the same HTTP requests as the client sends (path,
/// body, bearer token), through a `CurlTransport` of their own with the body read to the
/// end and nothing parsed. A scenario's time minus its probe's is what the client's layers
/// above the transport (request building, retries and deadline, JSON, snapshots, cache)
/// add; the probe minus curl's time is the transport's own overhead.
enum TransportProbe {
  /// Times sending `requests` one after another (one run), like ``EmulatorScenario/run``.
  static func run(
    _ name: String, _ label: String, _ options: BenchOptions, countAtScaleOne: Int, warmup: Int,
    requests: [(method: String, path: String, body: String?)]
  ) async throws -> BenchResult {
    let host = try options.emulatorHost()
    let transport = CurlTransport()
    let prepared = try requests.map { request -> HTTPRequest in
      guard let url = URL(string: "http://\(host)/v1/projects/\(PeerDataset.project)/databases/(default)/documents" + request.path) else {
        throw ToolFailure("bad probe path \(request.path)")
      }
      var headers = ["Authorization": "Bearer owner"]
      if request.body != nil { headers["Content-Type"] = "application/json" }
      // Every probed call may go twice, as the client marks it (reads, and a commit of a
      // plain set): the transport then sends a small body with the head, in one write. And
      // each is read whole, as the client reads a unary reply.
      var prepared = HTTPRequest(
        method: request.method, url: url, headers: headers, body: request.body.map { Data($0.utf8) }, isIdempotent: true)
      prepared.readsWholeBody = true
      return prepared
    }
    let measurement = try await Measurement.run(warmup: warmup, reps: options.runs(countAtScaleOne)) {
      try await send(prepared, through: transport, for: name)
    }
    return BenchResult(scenario: name, label: label, measurement: measurement)
  }

  /// Sends `requests` one after another, each body read to its end and not parsed.
  /// With `spin`, the CPU is kept busy that long before each request: work of the
  /// caller's own between calls, stood in for without any code of the client's. With
  /// `touch`, its lines are read before each request: memory a client's call would read.
  static func send(
    _ requests: [HTTPRequest], through transport: CurlTransport, for name: String, spin: Duration = .zero,
    touch: ColdLines? = nil
  ) async throws {
    for request in requests {
      touch?.visit()
      if spin > .zero {
        let end = ContinuousClock.now + spin
        while ContinuousClock.now < end {}
      }
      let response = try await transport.send(request)
      _ = try await response.collectBody()
      guard response.status == 200 else {
        throw ToolFailure("\(name): HTTP \(response.status) for \(request.method) \(request.url.path)")
      }
    }
  }
}
