/// A callback of the Apple SDK's shape, which ported code passes without `@Sendable`: it
/// is only ever called on the instance's serial ``Firestore/callbackQueue``, one call at a
/// time, as the Apple SDK calls it on its dispatch queue.
struct UncheckedCallback<Argument>: @unchecked Sendable {
  private let body: (Argument) -> Void

  init(_ body: @escaping (Argument) -> Void) { self.body = body }

  /// Calls the callback.
  func call(_ argument: Argument) { body(argument) }
}
