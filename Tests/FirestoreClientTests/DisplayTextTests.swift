import FirestorePlatform
import Testing

@testable import FirestoreClient

/// What of a text may be shown: the rules every error, log line and CLI message goes
/// through.
@Suite("DisplayText: secrets, URL credentials, control characters and length")
struct DisplayTextTests {
  @Test(
    "URL credentials are removed wherever a URL appears",
    arguments: [
      ("http://ada:s3cr3t@proxy:3128", "http://***@proxy:3128"),
      ("proxy 'socks9://user:s3cr3t@127.0.0.1:1' refused", "proxy 'socks9://***@127.0.0.1:1' refused"),
      ("bad http://user:s3cr3t@[bad", "bad http://***@[bad"),
      ("https://token@host/path?q=a@b", "https://***@host/path?q=a@b"),
      ("https://a:b@c@host/", "https://***@host/"),
      ("https://host/users/ada@example.com", "https://host/users/ada@example.com"),
      ("mail ada@example.com", "mail ada@example.com"),
      ("://@", "://@"),
    ])
  func urlCredentials(given: String, shown: String) {
    #expect(DisplayText.sanitize(given) == shown)
  }

  @Test("every given secret is replaced, short ones are left alone")
  func secrets() {
    let text = "Bearer ya29.secret-token echoed; key AIzaKEY123 and ya29.secret-token again; pin 1234"
    let shown = DisplayText.sanitize(text, secrets: ["ya29.secret-token", "AIzaKEY123", "1234"])
    #expect(shown == "Bearer <redacted> echoed; key <redacted> and <redacted> again; pin 1234")
  }

  @Test("the credentials of a URL given as text, parsable or not")
  func credentials() {
    #expect(DisplayText.credentials(of: "socks9://user:s3cr3t@127.0.0.1:1") == ["user:s3cr3t", "s3cr3t"])
    #expect(DisplayText.credentials(of: "user:s3cr3t@[bad") == ["user:s3cr3t", "s3cr3t"])
    #expect(DisplayText.credentials(of: "http://token@proxy") == ["token"])
    #expect(DisplayText.credentials(of: "http://proxy:3128") == [])
  }

  @Test("control characters are spelled out; newline, tab and ordinary text stay")
  func controlCharacters() {
    let text = "a\u{1B}]0;title\u{07}b\u{1B}[2Jc\rd\u{7F}e\u{9B}f\u{202E}g\nh\ti é 日本"
    let shown = DisplayText.sanitize(text)
    #expect(shown == "a\\u{1B}]0;title\\u{7}b\\u{1B}[2Jc\\u{D}d\\u{7F}e\\u{9B}f\\u{202E}g\nh\ti é 日本")
    #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
  }

  @Test("a long text is cut to its start and its size, within the limit")
  func length() {
    let digits = String(repeating: "1234567890", count: 10_000)
    let shown = DisplayText.sanitize(digits)
    #expect(shown.count == DisplayText.defaultLimit)
    #expect(shown.hasPrefix("1234567890"))
    #expect(shown.hasSuffix("… (100000 bytes)"))
    #expect(DisplayText.sanitize("short", limit: 5) == "short")
    #expect(DisplayText.sanitize("abcdefghijklmnopqrstuvwxyz", limit: 20) == "abcdefgh… (26 bytes)")
  }

  @Test("sanitizing again changes nothing")
  func idempotent() {
    let text = "x http://u:p@h \u{1B}[31m " + String(repeating: "y", count: 5000) + " secret-value"
    let once = DisplayText.sanitize(text, secrets: ["secret-value"])
    #expect(DisplayText.sanitize(once, secrets: ["secret-value"]) == once)
  }

  @Test("a FirestoreError keeps its message and description displayable")
  func firestoreError() {
    let error = FirestoreError(.internal, "from http://u:pw@proxy: \u{1B}]52;c;aGk=\u{07}")
    #expect(error.message == "from http://***@proxy: \\u{1B}]52;c;aGk=\\u{7}")
    #expect(error.localizedDescription == error.message)
    let changed = error.replacingMessage(error.message + " then \u{1B}[2J")
    #expect(changed.description == "INTERNAL: from http://***@proxy: \\u{1B}]52;c;aGk=\\u{7} then \\u{1B}[2J")
  }

  @Test("the log handler is given messages as they may be shown")
  func logHandler() {
    let logged = Locked<[String]>([])
    let settings = FirestoreSettings(environment: [:])
    settings.logHandler = { message in logged.withLock { $0.append(message) } }
    settings.configuration.log("cache file \u{1B}[2J at https://me:pw@host/")
    #expect(logged.withLock { $0 } == ["cache file \\u{1B}[2J at https://***@host/"])
  }
}
