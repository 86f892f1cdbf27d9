import Dispatch
import Foundation

/// The Apple SDK's transaction forms: a synchronous block that reads with
/// `try transaction.getDocument(ref)`, fails by setting `errorPointer?.pointee`, and returns
/// the transaction's value, which `completion` receives.
extension Firestore {
  /// Runs `updateBlock` in a transaction and calls `completion` on
  /// ``FirestoreSettings/dispatchQueue`` with the value it returned, or the error.
  ///
  /// ```swift
  /// db.runTransaction({ (transaction, errorPointer) -> Any? in
  ///   let snapshot: DocumentSnapshot
  ///   do {
  ///     snapshot = try transaction.getDocument(counter)
  ///   } catch {
  ///     errorPointer?.pointee = NSError(domain: "app", code: 1)
  ///     return nil
  ///   }
  ///   let count = (snapshot.get("count") as? Int ?? 0) + 1
  ///   transaction.updateData(["count": count], forDocument: counter)
  ///   return count
  /// }, completion: { (object, error) in
  ///   print(object ?? error ?? "")
  /// })
  /// ```
  ///
  /// The block runs on a dispatch queue, where its reads may block; it may run more than
  /// once, as the `async` ``runTransaction(options:_:)`` retries, whose rules this form
  /// follows. An error set through `errorPointer` rolls the transaction back, writes
  /// nothing, and reaches `completion` as it was set.
  public func runTransaction(
    _ updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?, completion: @escaping (Any?, (any Error)?) -> Void
  ) {
    runTransaction(with: nil, block: updateBlock, completion: completion)
  }

  /// Runs `updateBlock` in a transaction with `options` (the defaults when `nil`); see
  /// ``runTransaction(_:completion:)``.
  public func runTransaction(
    with options: TransactionOptions?, block updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?,
    completion: @escaping (Any?, (any Error)?) -> Void
  ) {
    let block = TransactionBlock(updateBlock)
    let options = options ?? TransactionOptions()
    let deliver = { (result: TransactionBlock.Value?, error: (any Error)?) in completion(result?.value, error) }
    complete(deliver) { try await self.runTransaction(options: options) { transaction in try await block.run(transaction) } }
  }

  /// Runs `updateBlock` in a transaction and returns the value it returned (see
  /// ``runTransaction(_:completion:)``): the Apple SDK's `async` form of the block.
  ///
  /// ```swift
  /// let count = try await db.runTransaction { transaction, errorPointer -> Any? in
  ///   guard let snapshot = try? transaction.getDocument(counter) else { return nil }
  ///   let count = (snapshot.get("count") as? Int ?? 0) + 1
  ///   transaction.updateData(["count": count], forDocument: counter)
  ///   return count
  /// }
  /// ```
  ///
  /// - Throws: the error set through `errorPointer`, or why the transaction failed.
  public func runTransaction(_ updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?) async throws -> sending Any? {
    let block = TransactionBlock(updateBlock)
    return try await runTransaction(options: TransactionOptions()) { transaction in try await block.run(transaction) }.value
  }
}

/// A transaction block of the Apple SDK's shape, which ported code passes without
/// `@Sendable`: each attempt calls it once, on a queue of its own, and the attempts follow
/// one another.
private struct TransactionBlock: @unchecked Sendable {
  /// What the block returned, handed unchanged to the completion handler.
  struct Value: @unchecked Sendable {
    let value: Any?
  }

  private let body: (Transaction, NSErrorPointer) -> Any?
  /// A serial queue of the transaction's own: it gets a thread of its own even when
  /// every thread of the global queues is blocked in other blocks' reads.
  private let queue = DispatchQueue(label: "FirestoreClient.transaction-block")

  init(_ body: @escaping (Transaction, NSErrorPointer) -> Any?) { self.body = body }

  /// Calls the block for one attempt on a dispatch queue, where its synchronous reads may
  /// wait, and returns its value or throws the error it set.
  func run(_ transaction: Transaction) async throws -> Value {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Value, any Error>) in
      queue.async {
        var error: NSError?
        let value = body(transaction, &error)
        if let error { done.resume(throwing: error) } else { done.resume(returning: Value(value: value)) }
      }
    }
  }
}
