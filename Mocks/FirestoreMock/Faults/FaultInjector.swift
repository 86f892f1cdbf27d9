import FirestorePlatform
import FirestoreWire

/// The fault rules a ``MockHTTPServer`` applies around its handler; safe to change from
/// any thread while the server runs.
///
/// For each request every matching rule applies once (and a rule with a ``FaultRule/remaining``
/// count uses up one): latencies add up, a stall wins over everything, the first matching
/// error replaces the handler's response, and the smallest drop / truncate limits apply to
/// whichever response is written.
public final class FaultInjector: Sendable {
  private let state = Locked<[FaultRule]>([])
  /// Per ``Fault/hold(_:)`` name: how many requests reached it, and whether it is released.
  private let holds = Locked<[String: (arrivals: Int, released: Bool)]>([:])

  /// Creates an injector with no rules.
  public init() {}

  /// Creates an injector with these rules.
  public init(_ rules: [FaultRule]) {
    for rule in rules { add(rule) }
  }

  /// Adds a rule after the existing ones. A rule with `remaining` ≤ 0 is already spent and
  /// is ignored.
  public func add(_ rule: FaultRule) {
    if let remaining = rule.remaining, remaining <= 0 { return }
    state.withLock { $0.append(rule) }
  }

  /// Removes every rule.
  public func removeAll() {
    state.withLock { $0.removeAll() }
  }

  /// The rules still active, in the order they were added, with their remaining counts.
  public var rules: [FaultRule] {
    state.withLock { $0 }
  }

  /// Lets every request held at `name` go on, and those that reach it later pass at once.
  public func release(_ name: String) {
    holds.withLock { $0[name, default: (0, false)].released = true }
  }

  /// How many requests reached the hold `name` so far (held now or let go).
  public func arrivals(at name: String) -> Int {
    holds.withLock { $0[name]?.arrivals ?? 0 }
  }

  /// Notes a request reaching the hold `name`.
  func arrive(at name: String) {
    holds.withLock { $0[name, default: (0, false)].arrivals += 1 }
  }

  /// Whether the hold `name` lets requests go on.
  func isReleased(_ name: String) -> Bool {
    holds.withLock { $0[name]?.released ?? false }
  }

  /// The faults for one request (`query` is its raw query string, without the `?`): uses up
  /// one application of every matching rule (removing rules that are then spent) and
  /// returns their faults in rule order.
  public func consumeFaults(method: String, path: String, query: String = "") -> [Fault] {
    state.withLock { rules in
      var faults: [Fault] = []
      var index = 0
      while index < rules.count {
        guard rules[index].matches(method: method, path: path, query: query) else {
          index += 1
          continue
        }
        faults.append(rules[index].fault)
        if let remaining = rules[index].remaining {
          if remaining <= 1 {
            rules.remove(at: index)
            continue
          }
          rules[index].remaining = remaining - 1
        }
        index += 1
      }
      return faults
    }
  }
}
