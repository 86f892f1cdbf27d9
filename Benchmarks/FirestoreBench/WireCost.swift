import FirestoreClient
import FirestoreDemo
import FirestoreRepositories

/// What one operation costs on the wire: round trips and body bytes, counted by a
/// ``FirestoreDemo/CountingTransport`` on a client of its own.
///
/// The timed runs never go through the counter (its relay of every body chunk costs
/// time); the operation is run once more, afterwards, to count.
enum WireCost {
  /// Runs `operation` once on a fresh client of `options`' emulator whose transport counts,
  /// and returns the counts.
  static func count(_ options: BenchOptions, _ operation: (Firestore) async throws -> Void) async throws -> CountingTransport.Totals {
    let counter = CountingTransport(wrapping: CurlTransport())
    let settings = FirestoreSettings.emulator(host: try options.emulatorHost())
    settings.transport = counter
    try await operation(Firestore(projectID: PeerDataset.project, settings: settings))
    return counter.totals
  }

  /// Adds `round_trips`, `bytes_sent` and `bytes_received` to `result`.
  static func record(_ totals: CountingTransport.Totals, in result: inout BenchResult) {
    result.add("round_trips", .integer(totals.requests))
    result.add("bytes_sent", .integer(totals.bytesSent))
    result.add("bytes_received", .integer(totals.bytesReceived))
  }
}
