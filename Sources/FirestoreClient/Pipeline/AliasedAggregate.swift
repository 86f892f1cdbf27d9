/// An accumulator with the name of its output field, made by ``AggregateFunction/as(_:)``.
public struct AliasedAggregate: Sendable {
  let alias: String
  let function: AggregateFunction
}
