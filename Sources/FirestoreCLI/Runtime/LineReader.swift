import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file or standard input line by line, in 64 KB chunks, so an import never
/// holds the whole input in memory.
final class LineReader: @unchecked Sendable {
  // Used by one task at a time (the importer's), so no lock.
  /// What the input is called in messages: the file name or "standard input".
  let name: String
  private let fd: Int32
  private let ownsDescriptor: Bool
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  /// The number of the line last returned, from 1.
  private(set) var lineNumber = 0

  /// Opens a file (`-` is standard input).
  ///
  /// - Throws: ``CLIFailure`` (`NOT_FOUND`, `PERMISSION_DENIED`, …) naming the file.
  init(path: String) throws {
    if path == "-" {
      name = "standard input"
      fd = 0
      ownsDescriptor = false
      return
    }
    name = path
    fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw LineReader.failure(errno, path) }
    ownsDescriptor = true
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw CLIFailure("INVALID_ARGUMENT", "'\(path)' is a directory, not a file")
    }
  }

  /// Reads standard input.
  init() {
    name = "standard input"
    fd = 0
    ownsDescriptor = false
  }

  deinit {
    if ownsDescriptor { close(fd) }
  }

  /// Whether this is a regular file (whose lines can be counted ahead for an ETA).
  var isRegularFile: Bool {
    var info = stat()
    return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// The next line without its newline (a final `\r` is dropped too), or `nil` at the end.
  func nextLine() throws -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        var end = newline
        if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = String(decoding: buffer[start..<end], as: UTF8.self)
        start = newline + 1
        lineNumber += 1
        return line
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        let line = String(decoding: buffer[start...], as: UTF8.self)
        start = buffer.count
        lineNumber += 1
        return line
      }
      if start > 0 {
        buffer.removeSubrange(0..<start)
        start = 0
      }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw LineReader.failure(errno, name)
      }
      if n == 0 { atEnd = true } else { buffer.append(contentsOf: chunk[0..<n]) }
    }
  }

  /// Counts the non-empty lines of a regular file at `path` without keeping them.
  static func countLines(path: String) -> Int? {
    guard let reader = try? LineReader(path: path), reader.isRegularFile else { return nil }
    var count = 0
    while let line = try? reader.nextLine() {
      if !line.allSatisfy(\.isWhitespace) { count += 1 }
    }
    return count
  }

  private static func failure(_ code: Int32, _ path: String) -> CLIFailure {
    let reason = String(cString: strerror(code))
    switch code {
    case ENOENT: return CLIFailure("NOT_FOUND", "cannot open '\(path)': \(reason)")
    case EACCES, EPERM: return CLIFailure("PERMISSION_DENIED", "cannot open '\(path)': \(reason)")
    default: return CLIFailure("UNKNOWN", "cannot read '\(path)': \(reason)")
    }
  }
}
