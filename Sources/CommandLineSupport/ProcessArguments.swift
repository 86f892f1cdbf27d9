/// The process's arguments as text, refused when one is not valid UTF-8.
///
/// `CommandLine.arguments` repairs bad bytes into U+FFFD, so a path or a value with a
/// Latin-1 byte in it would silently name a different document or write different data;
/// reading `argv` directly lets the program say so instead.
package enum ProcessArguments {
  /// The arguments after the program name.
  ///
  /// - Throws: ``UsageError`` naming the first argument that is not valid UTF-8, its bad
  ///   bytes spelled `\xE9`.
  package static func current() throws(UsageError) -> [String] {
    let argv = CommandLine.unsafeArgv
    var arguments: [String] = []
    for index in 1..<Int(CommandLine.argc) {
      guard let pointer = argv[index] else { continue }
      var length = 0
      while pointer[length] != 0 { length += 1 }
      let bytes = pointer.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
      arguments.append(try decode(bytes, position: index))
    }
    return arguments
  }

  /// `bytes` as text when they are valid UTF-8.
  ///
  /// - Throws: ``UsageError`` saying which argument (`position`, counting from 1) is not.
  package static func decode(_ bytes: [UInt8], position: Int) throws(UsageError) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    throw UsageError(
      "argument \(position) is not valid UTF-8 text: '\(spelled(bytes))' (give paths, IDs and data as UTF-8)")
  }

  /// `bytes` with every byte outside a valid UTF-8 sequence spelled `\xE9`.
  private static func spelled(_ bytes: [UInt8]) -> String {
    var out = ""
    var index = 0
    while index < bytes.count {
      let length = sequenceLength(bytes, at: index)
      if length > 0, let text = String(validating: bytes[index..<(index + length)], as: UTF8.self) {
        out += text
        index += length
      } else {
        out += "\\x" + String(bytes[index], radix: 16, uppercase: true)
        index += 1
      }
    }
    return out
  }

  /// How long the UTF-8 sequence at `index` claims to be, if it fits.
  private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
    let lead = bytes[index]
    let length: Int
    switch lead {
    case 0x00..<0x80: length = 1
    case 0xC2..<0xE0: length = 2
    case 0xE0..<0xF0: length = 3
    case 0xF0..<0xF5: length = 4
    default: return 0
    }
    return index + length <= bytes.count ? length : 0
  }
}
