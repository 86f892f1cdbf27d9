import FirestorePlatform
import FirestoreWire

/// Fans one value out to any number of `AsyncStream` subscribers: each new subscriber gets
/// the current value at once, then every later one. Ends all streams on ``finish()``.
///
/// Repositories keep their state in an actor and publish it through one of these, so a
/// SwiftUI view, a test and a CLI printer can all watch the same state.
final class StateBroadcaster<Value: Sendable>: Sendable {
  private struct Box {
    var value: Value
    var next = 0
    var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
    var finished = false
  }

  private let box: Locked<Box>

  init(_ initial: Value) {
    box = Locked(Box(value: initial))
  }

  /// The latest value.
  var value: Value { box.withLock { $0.value } }

  /// Publishes `value` to every subscriber.
  func send(_ value: Value) {
    let targets = box.withLock { box -> [AsyncStream<Value>.Continuation] in
      box.value = value
      return Array(box.continuations.values)
    }
    for continuation in targets { continuation.yield(value) }
  }

  /// A stream of the current value and every later one. A reader that falls more than 64
  /// values behind loses the oldest: state is what matters, not every step.
  func stream() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(64))
    let (id, current, finished) = box.withLock { box -> (Int, Value, Bool) in
      let id = box.next
      box.next += 1
      if !box.finished { box.continuations[id] = continuation }
      return (id, box.value, box.finished)
    }
    continuation.yield(current)
    if finished {
      continuation.finish()
    } else {
      continuation.onTermination = { [weak self] _ in
        _ = self?.box.withLock { $0.continuations.removeValue(forKey: id) }
      }
    }
    return stream
  }

  /// Ends every stream; later subscribers get the last value and an immediate end.
  func finish() {
    let targets = box.withLock { box -> [AsyncStream<Value>.Continuation] in
      box.finished = true
      defer { box.continuations = [:] }
      return Array(box.continuations.values)
    }
    for continuation in targets { continuation.finish() }
  }
}
