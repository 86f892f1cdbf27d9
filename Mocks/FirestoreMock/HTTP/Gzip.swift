import CZlib
import Foundation

/// gzip compression of response bodies, as Google's front ends apply it to clients that
/// send `Accept-Encoding: gzip`: whole bodies, and streamed ones as they are written.
final class Gzip {
  /// Complete bodies smaller than this go out as they are: compressing them saves nothing
  /// worth the CPU (where production draws the line is not documented).
  static let minimumBytes = 1024

  /// Whether a request's `Accept-Encoding` takes gzip (and does not refuse it with `q=0`).
  static func isAccepted(_ headers: [(name: String, value: String)]) -> Bool {
    for header in headers where header.name == "accept-encoding" {
      for coding in header.value.split(separator: ",") {
        let parts = coding.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let name = parts.first, name == "gzip" || name == "*" else { continue }
        return !parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" }
      }
    }
    return false
  }

  /// `bytes` compressed into one gzip member, or `nil` if zlib fails.
  static func compress(_ bytes: [UInt8]) -> [UInt8]? {
    guard let gzip = Gzip() else { return nil }
    return try? gzip.append(bytes) + gzip.finish()
  }

  private var stream = z_stream()
  private var output = [UInt8](repeating: 0, count: 64 << 10)

  /// Starts a gzip member; `nil` if zlib fails.
  init?() {
    guard swiftfirestore_deflate_init_gzip(&stream, 6) == Z_OK else { return nil }
  }

  deinit { deflateEnd(&stream) }

  /// Takes more input; returns the compressed bytes ready so far (often none).
  func append(_ bytes: [UInt8]) throws -> [UInt8] { try run(bytes, flush: Z_NO_FLUSH) }

  /// Ends the member: the rest of the compressed bytes and the gzip trailer.
  func finish() throws -> [UInt8] { try run([], flush: Z_FINISH) }

  private func run(_ bytes: [UInt8], flush: Int32) throws -> [UInt8] {
    var result: [UInt8] = []
    try bytes.withUnsafeBufferPointer { input in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = uInt(input.count)
      while true {
        let (status, produced) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
          stream.next_out = out.baseAddress
          stream.avail_out = uInt(out.count)
          let status = deflate(&stream, flush)
          return (status, out.count - Int(stream.avail_out))
        }
        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { throw GzipError(status: status) }
        result += output[..<produced]
        // More to do while the output buffer came back full, or the member is not closed.
        if stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END) { continue }
        return
      }
    }
    return result
  }

  struct GzipError: Error {
    let status: Int32
  }

  /// A chunk writer that compresses what is written to it on the way to `base`.
  struct Writer: MockChunkWriter, @unchecked Sendable {
    // One writer per response, used by the connection's thread only.
    let base: any MockChunkWriter
    let gzip: Gzip
    let sent: Counter

    final class Counter: @unchecked Sendable {
      var bytes = 0
    }

    func write(_ bytes: [UInt8]) throws {
      let compressed = try gzip.append(bytes)
      sent.bytes += compressed.count
      try base.write(compressed)
    }

    func finish() throws {
      let rest = try gzip.finish()
      sent.bytes += rest.count
      try base.write(rest)
    }
  }
}
