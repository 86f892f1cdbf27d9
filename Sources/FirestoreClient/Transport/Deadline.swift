/// Runs an operation with a time limit, cancelling it and failing with
/// `deadlineExceeded` when the limit passes first.
enum Deadline {
  static func run<T: Sendable>(
    _ limit: Duration, what: @autoclosure () -> String, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let description = what()
    return try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        try await Task.sleep(for: limit)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let value = first else {
        throw FirestoreError(.deadlineExceeded, "\(description) did not finish within \(limit)")
      }
      return value
    }
  }
}
