import FirestoreMock
import Testing

@testable import FirestoreClient

/// One cell of the fault matrix (see `FaultMatrixTests`): a kind of call, a fault the mock
/// injects into that call's requests, and the outcome the client must produce.
struct FaultMatrixCell: Sendable, CustomTestStringConvertible {
  /// The kinds of call, each with the requests its faults go to.
  enum Call: String, CaseIterable, Sendable {
    /// `getDocument(source: .server)`: `GET …/documents/m/d`.
    case get
    /// `getAll`: `:batchGet`.
    case batchGet
    /// `stream()` of a query: `:runQuery`, read element by element.
    case runQueryStream
    /// `count.getAggregation()`: `:runAggregationQuery`.
    case aggregation
    /// `updateData` with `FieldValue.increment(1)`: a `:commit` that must never apply twice.
    case commit
    /// `runTransaction` that reads a counter and writes it plus one; the faults go to its
    /// `:commit`, the step whose outcome can be uncertain.
    case transaction
    /// A query listener; the faults go to the Listen back channel (`GET …/Listen/channel`)
    /// that the client reopens after the server ended the open one.
    case listen

    /// The fault rule's route.
    var route: String {
      switch self {
      case .get: return "GET /v1/"
      case .batchGet: return "batchGet"
      case .runQueryStream: return "runQuery"
      case .aggregation: return "runAggregationQuery"
      case .commit, .transaction: return "commit"
      case .listen: return "GET /google.firestore.v1.Firestore/Listen/channel?RID=rpc"
      }
    }

    /// Whether Firestore's reply is a JSON array (else an object, or WebChannel frames).
    var repliesWithArray: Bool { self == .batchGet || self == .runQueryStream || self == .aggregation }
  }

  /// The faults. Each is applied to the first two requests of the call's route after it is
  /// added (`remaining: 2`), so a retry meets it once more and a second retry gets through.
  enum Fault: String, CaseIterable, Sendable {
    /// The server handles the request only after 12 s; the call's deadline is 5 s (and the
    /// listen's back-channel silence limit 5 s).
    case delayPastDeadline
    /// `503 UNAVAILABLE` with Firestore's JSON error body.
    case unavailable503
    /// `429 RESOURCE_EXHAUSTED` with Firestore's JSON error body.
    case resourceExhausted429
    /// `500 INTERNAL` with Firestore's JSON error body.
    case internal500
    /// `502` with a load balancer's HTML page instead of a Firestore error.
    case badGateway502
    /// The request is handled (a commit applies), then the connection closes before any
    /// byte of the response.
    case resetBeforeResponse
    /// The request is handled, the head and 5 body bytes are sent, then the connection
    /// closes (the body is shorter than announced).
    case resetMidResponse
    /// A complete `200` whose JSON is cut short; on a back channel, a frame whose length
    /// prefix promises more than the body holds.
    case truncatedJSON
    /// A complete `200` whose body is not JSON; on a back channel, a correctly framed
    /// frame whose JSON is broken.
    case invalidJSON
    /// A `200` HTML page (a captive portal's) where JSON or frames were expected.
    case wrongContentType
    /// A `200` with an empty body.
    case emptyBody
    /// `401 UNAUTHENTICATED` with Firestore's JSON error body.
    case unauthenticated401
    /// A `200` whose reply (or first element) is larger than the client reads: the cells
    /// set the limit to ``replyLimit``. On a back channel, a frame that declares a length
    /// past the frame limit.
    case oversizedReply

    /// The mock fault for `call`.
    func fault(for call: Call) -> FirestoreMock.Fault {
      switch self {
      case .delayPastDeadline: return .hold(Self.delayHold)
      case .unavailable503: return .error(status: 503, grpcStatus: "UNAVAILABLE", message: "The service is currently unavailable.")
      case .resourceExhausted429: return .error(status: 429, grpcStatus: "RESOURCE_EXHAUSTED", message: "Quota exceeded.")
      case .internal500: return .error(status: 500, grpcStatus: "INTERNAL", message: "Internal error encountered.")
      case .badGateway502: return Self.reply(502, "text/html; charset=UTF-8", Self.badGatewayPage)
      case .resetBeforeResponse: return .dropConnection(afterResponseBytes: 0)
      case .resetMidResponse: return .truncateStream(afterBytes: 5)
      case .truncatedJSON:
        if call == .listen { return Self.reply(200, "text/plain; charset=utf-8", #"40\#n[[9,["noop"]]]"#) }
        return Self.reply(200, "application/json; charset=UTF-8", Self.truncatedReply(for: call))
      case .invalidJSON:
        if call == .listen { return Self.reply(200, "text/plain; charset=utf-8", #"14\#n[[9,['noop']]]"#) }
        return Self.reply(200, "application/json; charset=UTF-8", call.repliesWithArray ? "[{'found': {}}]" : "{'name': 'm/d'}")
      case .wrongContentType: return Self.reply(200, "text/html; charset=utf-8", Self.portalPage)
      case .emptyBody: return Self.reply(200, call == .listen ? "text/plain; charset=utf-8" : "application/json; charset=UTF-8", "")
      case .unauthenticated401:
        return .error(status: 401, grpcStatus: "UNAUTHENTICATED", message: "Request had invalid authentication credentials.")
      case .oversizedReply:
        if call == .listen { return Self.reply(200, "text/plain; charset=utf-8", "999999999999\n[[9,[") }
        let big = String(repeating: "a", count: 2 * Self.replyLimit)
        return Self.reply(200, "application/json; charset=UTF-8", Self.truncatedReply(for: call) + "\"" + big + "\"}")
      }
    }

    /// The reply size limit of the cells' clients (``FirestoreSettings/maximumReplyBytes``).
    static let replyLimit = 64 << 10

    /// The hold a delayed request waits at: let go once the caller has its outcome.
    static let delayHold = "past-deadline"

    private static func reply(_ status: Int, _ contentType: String, _ body: String) -> FirestoreMock.Fault {
      .replaceResponse(status: status, contentType: contentType, body: Array(body.utf8))
    }

    /// The start of a plausible reply of `call`, cut inside a value.
    private static func truncatedReply(for call: Call) -> String {
      let name = #""name":"projects/fault-matrix/databases/(default)/documents/m/d""#
      switch call {
      case .get: return #"{\#(name),"fields":{"n":{"integerVal"#
      case .batchGet: return #"[{"found":{\#(name),"fields":{"n":{"integ"#
      case .runQueryStream: return #"[{"document":{\#(name),"fields":{"n":{"in"#
      case .aggregation: return #"[{"result":{"aggregateFields":{"aggregate_0":{"integerVal"#
      case .commit, .transaction, .listen: return #"{"writeResults":[{"updateTime":"2026-01-01T00:00:00.000001Z","transformRes"#
      }
    }

    static let badGatewayPage =
      "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>"
      + "<p>The upstream server did not answer in time.</p></body></html>"
    static let portalPage =
      "<!DOCTYPE html><html><head><title>Network login</title></head><body><p>Sign in to use this network.</p></body></html>"

    /// A phrase every failure caused by this fault must contain, so that the message names
    /// the problem.
    var namedIn: String {
      switch self {
      case .delayPastDeadline: return "did not finish within"
      case .unavailable503: return "The service is currently unavailable."
      case .resourceExhausted429: return "Quota exceeded."
      case .internal500: return "Internal error encountered."
      case .badGateway502: return "502 Bad Gateway"
      case .resetBeforeResponse: return "closed before a response arrived"
      case .resetMidResponse: return "closed before the response body was complete"
      case .truncatedJSON: return "cut short"
      case .invalidJSON: return "not valid JSON"
      case .wrongContentType: return "text/html"
      case .emptyBody: return "empty body"
      case .unauthenticated401: return "invalid authentication credentials"
      case .oversizedReply: return "exceeds \(Self.replyLimit) bytes"
      }
    }
  }

  /// What the call does under the fault.
  enum Outcome: Sendable, Equatable, CustomStringConvertible {
    /// The call returns the right result after this many requests on its route.
    case succeedsAfterRetry(requests: Int)
    /// The call throws a ``FirestoreError`` with this code, after this many requests on its
    /// route, within its deadline.
    case fails(FirestoreError.Code, requests: Int)
    /// The listener sees every change exactly once, after the client opened this many new
    /// WebChannel sessions (0: the back channel was reopened in the same session).
    case recovers(newSessions: Int)

    var description: String {
      switch self {
      case .succeedsAfterRetry(let n): return "retried ok (\(n))"
      case .fails(let code, let n): return "\(code.statusName) (\(n))"
      case .recovers(let n): return "recovers (+\(n))"
      }
    }
  }

  /// How often a write applied, as read from the server afterwards.
  enum Applied: String, Sendable {
    /// Not at all.
    case never
    /// Exactly once.
    case once
  }

  var call: Call
  var fault: Fault
  var outcome: Outcome
  /// For writes: what the database shows afterwards.
  var applied: Applied?

  init(_ call: Call, _ fault: Fault, _ outcome: Outcome, applied: Applied? = nil) {
    self.call = call
    self.fault = fault
    self.outcome = outcome
    self.applied = applied
  }

  var testDescription: String { "\(call.rawValue) × \(fault.rawValue)" }

  /// The rule that injects the cell's fault.
  var rule: FaultRule { FaultRule(route: call.route, fault: fault.fault(for: call), remaining: 2) }
}
