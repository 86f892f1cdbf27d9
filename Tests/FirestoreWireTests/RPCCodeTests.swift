import FirestoreWire
import Testing

@Suite("RPCCode: gRPC status codes, their names and their HTTP statuses")
struct RPCCodeTests {
  @Test("the numbers and names are gRPC's, and a name reads back as its code")
  func numbersAndNames() {
    #expect(RPCCode.allCases.map(\.rawValue) == Array(0...16))
    #expect(RPCCode.notFound.rawValue == 5 && RPCCode.unauthenticated.rawValue == 16)
    #expect(RPCCode.failedPrecondition.statusName == "FAILED_PRECONDITION")
    for code in RPCCode.allCases { #expect(RPCCode(statusName: code.statusName) == code) }
    #expect(RPCCode(statusName: "NOT_A_CODE") == nil)
  }

  @Test("each code's REST status reads back as a code with that status; proxies' 502 is unavailable")
  func httpStatuses() {
    #expect(RPCCode.notFound.httpStatus == 404 && RPCCode.resourceExhausted.httpStatus == 429)
    #expect(RPCCode.deadlineExceeded.httpStatus == 504 && RPCCode.unavailable.httpStatus == 503)
    for code in RPCCode.allCases {
      #expect(RPCCode(httpStatus: code.httpStatus).httpStatus == code.httpStatus, "\(code)")
    }
    #expect(RPCCode(httpStatus: 502) == .unavailable)
    #expect(RPCCode(httpStatus: 416) == .outOfRange)
    #expect(RPCCode(httpStatus: 507) == .internal)
    #expect(RPCCode(httpStatus: 302) == .unknown)
  }
}
