import Foundation
import Testing

@testable import FirestoreClient

/// An ID token's `exp` comes from whoever handed the token over: any number must be safe.
@Suite struct IDTokenLifetimeTests {
  func token(exp: String) -> String {
    let header = JWT.base64URL(Array(#"{"alg":"none"}"#.utf8))
    let claims = JWT.base64URL(Array(#"{"sub":"u1","exp":\#(exp)}"#.utf8))
    return "\(header).\(claims)."
  }

  @Test func hugeAndInfiniteExpiriesDoNotTrap() {
    let huge = IDTokenProvider.lifetime(of: token(exp: "1e300"))
    #expect(huge != nil && huge! <= .seconds(1_000_000_000))
    #expect(IDTokenProvider.lifetime(of: token(exp: "1e400")) == nil)
    #expect(IDTokenProvider.lifetime(of: token(exp: "-1e300")) == .zero)
    let hour = IDTokenProvider.lifetime(of: token(exp: String(Int(Date().timeIntervalSince1970) + 3600)))
    #expect(hour != nil && hour! > .seconds(3590) && hour! <= .seconds(3600))
  }
}
