import FirestoreWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Unbuffered writes to standard output and standard error.
///
/// Each output line is one `write(2)`, so lines stream out as they are produced and a
/// consumer on a pipe (`| jq`) sees whole lines. When the reader goes away (`| head -1`)
/// the process ends quietly with status 0: the reader chose to stop.
enum StandardStreams {
  /// Writes one JSON value as a line of NDJSON on standard output.
  static func writeLine(_ json: JSONValue) {
    var bytes = JSONWriter.bytes(json)
    bytes.append(UInt8(ascii: "\n"))
    write(fd: 1, bytes)
  }

  /// Writes text to standard output as is.
  static func writeOutput(_ text: String) { write(fd: 1, Array(text.utf8)) }

  /// Writes bytes to standard output as they are.
  static func writeBytes(_ bytes: [UInt8]) { write(fd: 1, bytes) }

  /// Writes text to standard error as is.
  static func writeError(_ text: String) { write(fd: 2, Array(text.utf8)) }

  /// Whether standard error is a terminal (progress lines go there only then).
  static var standardErrorIsTerminal: Bool { isatty(2) == 1 }

  /// Whether standard output is a terminal (a progress line would garble its lines).
  static var standardOutputIsTerminal: Bool { isatty(1) == 1 }

  private static func write(fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        #if canImport(Darwin)
          let n = Darwin.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        #else
          let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        #endif
        if n < 0 {
          if errno == EINTR { continue }
          if errno == EPIPE && fd == 1 { exit(0) }
          return
        }
        offset += n
      }
    }
  }
}
