import FirestoreWire
import Testing

@Suite("Percent-encoding")
struct PercentEncodingTests {
  @Test("everything but what encodeURIComponent keeps is escaped, in upper-case hex")
  func encode() {
    #expect(PercentEncoding.encode("a b%c?d#e+f/é=&:@$,;") == "a%20b%25c%3Fd%23e%2Bf%2F%C3%A9%3D%26%3A%40%24%2C%3B")
    #expect(PercentEncoding.encode("AZaz09-._~(default)!*'") == "AZaz09-._~(default)!*'")
    // A substring takes the same rule.
    let path = "users/a b/é"
    #expect(PercentEncoding.encode(path.split(separator: "/")[1]) == "a%20b")
    #expect(PercentEncoding.encode(path.split(separator: "/")[2]) == "%C3%A9")
    #expect(PercentEncoding.encode(path.split(separator: "/")[0]) == "users")
  }

  @Test("decoding: either hex case; + is a space only in a form field; bad escapes and bad UTF-8 give nil")
  func decode() {
    #expect(PercentEncoding.decode(Array("a%2fb%2Bc+d".utf8), plusIsSpace: false) == "a/b+c+d")
    #expect(PercentEncoding.decode(Array("a%2fb%2Bc+d".utf8), plusIsSpace: true) == "a/b+c d")
    #expect(PercentEncoding.decode(Array("%C3%A9".utf8), plusIsSpace: false) == "é")
    for bad in ["%", "%4", "%4G", "%C3", "%FF"] {
      #expect(PercentEncoding.decode(Array(bad.utf8), plusIsSpace: false) == nil, "\(bad)")
    }
    let text = "k=v w+/&é"
    #expect(PercentEncoding.decode(Array(PercentEncoding.encode(text).utf8), plusIsSpace: true) == text)
  }

  @Test("form text: pairs encoded both sides, and read back")
  func form() throws {
    let pairs = [("grant_type", "refresh_token"), ("token", "a+b/c=")]
    let text = FormURLEncoding.query(pairs)
    #expect(text == "grant_type=refresh_token&token=a%2Bb%2Fc%3D")
    #expect(try FormURLEncoding.pairs(text).map { [$0.0, $0.1] } == pairs.map { [$0.0, $0.1] })
    #expect(try FormURLEncoding.pairs("a=1+2&&b").map { [$0.0, $0.1] } == [["a", "1 2"], ["b", ""]])
    #expect(throws: WireFormatError.self) { try FormURLEncoding.pairs("a=%zz") }
  }
}
