// Fuzz target: the command line as the executables read it — argv bytes checked for UTF-8
// (ProcessArguments.decode), split into a command, positionals and options
// (ArgumentParser), and option values read as numbers (ParsedArguments) — and the text
// every error line passes through (DisplayText.sanitize).
//
// The input is a list of arguments separated by NUL bytes, as argv holds them.
//
// Properties: nothing traps; an argument that is not UTF-8 is refused and every one that
// is decodes to itself; a parsed option's numbers are within the bounds every option
// shares (and a duration of them exists); sanitized text has no control character but
// newline and tab, no given secret and no URL password, fits its limit, and sanitizing it
// again changes nothing.

import CommandLineSupport
import FirestorePlatform

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var arguments: [String] = []
  for (index, argument) in bytes.split(separator: 0, omittingEmptySubsequences: false).enumerated() {
    arguments.append(checkDecoding(Array(argument), position: index + 1))
  }
  checkParsing(arguments)
  let text = String(decoding: bytes, as: UTF8.self)
  // Secrets with the markers' characters (`<redacted>`, `***`, `…`) could be formed anew
  // beside a marker, which sanitize does not promise to prevent.
  let secrets = arguments.filter { $0.count >= DisplayText.shortestSecret && !$0.contains { "<>*…".contains($0) } }
  checkSanitizing(text, secrets: Array(secrets.prefix(3)))
  return 0
}

/// Valid UTF-8 decodes to the same bytes; anything else is a usage error whose message is
/// valid text with the bad bytes spelled out.
private func checkDecoding(_ bytes: [UInt8], position: Int) -> String {
  let valid = String(validating: bytes, as: UTF8.self)
  do {
    let text = try ProcessArguments.decode(bytes, position: position)
    require(valid != nil, "bytes \(bytes) that are not UTF-8 were accepted")
    require(Array(text.utf8) == bytes, "argument \(bytes) decoded to other bytes")
    return text
  } catch {
    require(valid == nil, "valid UTF-8 \(bytes) was refused: \(error.message)")
    // The bad bytes are spelled out, not replaced (a U+FFFD the input itself holds may show).
    let givesReplacement = bytes.indices.contains { bytes[$0...].starts(with: [0xEF, 0xBF, 0xBD]) }
    require(givesReplacement || !error.message.contains("\u{FFFD}"), "the refusal of \(bytes) shows U+FFFD: \(error.message)")
    return String(decoding: bytes, as: UTF8.self)
  }
}

private let parser = ArgumentParser(
  globalOptions: [OptionSpec("--timeout", "SECONDS"), OptionSpec("--limit", "N"), OptionSpec("--flag")],
  commands: ["get": [OptionSpec("--where", "CLAUSE", repeatable: true), OptionSpec("--scale", "X")], "listen": []])

/// Whatever the arguments, parsing ends in a result or a usage error; every value read
/// as a number is within bounds.
private func checkParsing(_ arguments: [String]) {
  guard let parsed = try? parser.parse(arguments) else { return }
  if let command = parsed.command { require(parser.commands[command] != nil, "parsed the unknown command \(command)") }
  for name in ["--timeout", "--limit", "--scale", "--where"] {
    if let n = try? parsed.integer(name) {
      require((0...ParsedArguments.largestInteger).contains(n), "\(name) read as the integer \(n)")
    }
    if let n = try? parsed.positiveInteger(name) {
      require((1...ParsedArguments.largestInteger).contains(n), "\(name) read as the positive integer \(n)")
    }
    if let x = try? parsed.positiveNumber(name) {
      require(x > 0 && x.isFinite && x <= ParsedArguments.largestNumber, "\(name) read as the number \(x)")
    }
    if let duration = try? parsed.seconds(name) {
      require(duration > .zero, "\(name) read as the duration \(duration)")
    }
  }
}

/// What sanitizing promises, for the text and for the text wrapped in a URL with a
/// password.
private func checkSanitizing(_ text: String, secrets: [String]) {
  for limit in [40, DisplayText.defaultLimit] {
    let shown = DisplayText.sanitize(text, secrets: secrets, limit: limit)
    require(shown.count <= max(limit, 0), "sanitized text of \(shown.count) characters for the limit \(limit)")
    require(
      !shown.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F..<0xA0).contains($0.value) },
      "sanitized text keeps a control character: \(shown.debugDescription)")
    require(DisplayText.sanitize(shown, secrets: secrets, limit: limit) == shown, "sanitizing \(text.debugDescription) twice differs")
    if limit == DisplayText.defaultLimit && text.count <= limit / 4 {
      // A secret of other characters could be made anew from a marker or an escape
      // beside the text around it; real tokens and passwords are of these.
      for secret in secrets
      where secret.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || "0123456789._-".unicodeScalars.contains($0)) })
      {
        require(!shown.contains(secret), "the secret \(secret.debugDescription) survived in \(shown.debugDescription)")
      }
    }
  }
  let password = "Pw0rd" + String(text.unicodeScalars.filter { $0.properties.isAlphabetic }.prefix(8).map(Character.init))
  let url = "see http://user:\(password)@proxy.example:3128/ " + String(text.prefix(80))
  require(!DisplayText.sanitize(url).contains(password), "the URL password survived in \(DisplayText.sanitize(url).debugDescription)")
}
