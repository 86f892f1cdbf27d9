extension Expression {
  /// `count`: the number of documents where this is present and not null.
  public func count() -> AggregateFunction { accumulate("count") }
  /// `count_distinct`: the number of distinct values.
  public func countDistinct() -> AggregateFunction { accumulate("count_distinct") }
  /// `sum`: the sum of the numeric values.
  public func sum() -> AggregateFunction { accumulate("sum") }
  /// `average`: the mean of the numeric values.
  public func average() -> AggregateFunction { accumulate("average") }
  /// `minimum`: the smallest value.
  public func minimum() -> AggregateFunction { accumulate("minimum") }
  /// `maximum`: the largest value.
  public func maximum() -> AggregateFunction { accumulate("maximum") }
  /// `first`: the value of the first document.
  public func first() -> AggregateFunction { accumulate("first") }
  /// `last`: the value of the last document.
  public func last() -> AggregateFunction { accumulate("last") }
  /// `array_agg`: every value, as an array.
  public func arrayAgg() -> AggregateFunction { accumulate("array_agg") }
  /// `array_agg_distinct`: the distinct values, as an array.
  public func arrayAggDistinct() -> AggregateFunction { accumulate("array_agg_distinct") }
}

extension BooleanExpression {
  /// `count_if`: the number of documents where this holds.
  public func countIf() -> AggregateFunction { accumulate("count_if") }
}
