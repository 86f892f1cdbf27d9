extension Expression {
  /// `array_contains`: whether this array holds `element`.
  public func arrayContains(_ element: Expression) -> BooleanExpression { test("array_contains", element) }
  /// `array_contains`: whether this array holds `element`.
  public func arrayContains(_ element: Sendable) -> BooleanExpression { test("array_contains", PipelineArgument(element)) }
  /// `array_contains_all`: whether this array holds every one of `values`.
  public func arrayContainsAll(_ values: [Expression]) -> BooleanExpression { test("array_contains_all", ArrayExpression(values)) }
  /// `array_contains_all`: whether this array holds every one of `values`.
  public func arrayContainsAll(_ values: [Sendable]) -> BooleanExpression { test("array_contains_all", ArrayExpression(values)) }
  /// `array_contains_all`: whether this array holds every element of the array `arrayExpression` yields.
  public func arrayContainsAll(_ arrayExpression: Expression) -> BooleanExpression { test("array_contains_all", arrayExpression) }
  /// `array_contains_any`: whether this array holds one of `values`.
  public func arrayContainsAny(_ values: [Expression]) -> BooleanExpression { test("array_contains_any", ArrayExpression(values)) }
  /// `array_contains_any`: whether this array holds one of `values`.
  public func arrayContainsAny(_ values: [Sendable]) -> BooleanExpression { test("array_contains_any", ArrayExpression(values)) }
  /// `array_contains_any`: whether this array holds an element of the array `arrayExpression` yields.
  public func arrayContainsAny(_ arrayExpression: Expression) -> BooleanExpression { test("array_contains_any", arrayExpression) }
  /// `array_length`: the number of elements.
  public func arrayLength() -> FunctionExpression { call("array_length") }
  /// `array_reverse`: the elements backwards.
  public func arrayReverse() -> FunctionExpression { call("array_reverse") }
  /// `array_concat`: this array followed by the arrays `arrays` yield.
  public func arrayConcat(_ arrays: [Expression]) -> FunctionExpression {
    FunctionExpression(functionName: "array_concat", args: [self] + arrays)
  }
  /// `array_concat`: this array followed by `arrays`.
  public func arrayConcat(_ arrays: [[Sendable]]) -> FunctionExpression {
    FunctionExpression(functionName: "array_concat", args: [self] + arrays.map { ArrayExpression($0) })
  }
  /// `array_filter`: the elements for which `filter` holds, each bound to `alias` (read it
  /// with ``Variable``).
  public func arrayFilter(alias: String, filter: BooleanExpression) -> FunctionExpression {
    call("array_filter", Constant(alias), filter)
  }
  /// `array_transform`: `transform` of each element, bound to `elementAlias`.
  public func arrayTransform(elementAlias: String, transform: Expression) -> FunctionExpression {
    call("array_transform", Constant(elementAlias), transform)
  }
  /// `array_transform`: `transform` of each element and its index, bound to `elementAlias`
  /// and `indexAlias`.
  public func arrayTransformWithIndex(elementAlias: String, indexAlias: String, transform: Expression) -> FunctionExpression {
    call("array_transform", Constant(elementAlias), Constant(indexAlias), transform)
  }
  /// `array_slice`: the elements from `offset` on.
  public func arraySlice(offset: Int) -> FunctionExpression { call("array_slice", Constant(offset)) }
  /// `array_slice`: the elements from `offset` on.
  public func arraySlice(offset: Expression) -> FunctionExpression { call("array_slice", offset) }
  /// `array_slice`: `length` elements from `offset`.
  public func arraySlice(offset: Int, length: Int) -> FunctionExpression { call("array_slice", Constant(offset), Constant(length)) }
  /// `array_slice`: `length` elements from `offset`.
  public func arraySlice(offset: Expression, length: Int) -> FunctionExpression { call("array_slice", offset, Constant(length)) }
  /// `array_slice`: `length` elements from `offset`.
  public func arraySlice(offset: Int, length: Expression) -> FunctionExpression { call("array_slice", Constant(offset), length) }
  /// `array_slice`: `length` elements from `offset`.
  public func arraySlice(offset: Expression, length: Expression) -> FunctionExpression { call("array_slice", offset, length) }
  /// `array_first`: the first element.
  public func arrayFirst() -> FunctionExpression { call("array_first") }
  /// `array_first_n`: the first `n` elements.
  public func arrayFirstN(_ n: Int) -> FunctionExpression { call("array_first_n", Constant(n)) }
  /// `array_first_n`: the first `n` elements.
  public func arrayFirstN(_ n: Expression) -> FunctionExpression { call("array_first_n", n) }
  /// `array_last`: the last element.
  public func arrayLast() -> FunctionExpression { call("array_last") }
  /// `array_last_n`: the last `n` elements.
  public func arrayLastN(_ n: Int) -> FunctionExpression { call("array_last_n", Constant(n)) }
  /// `array_last_n`: the last `n` elements.
  public func arrayLastN(_ n: Expression) -> FunctionExpression { call("array_last_n", n) }
  /// `array_get`: the element at `offset` (negative counts from the end).
  public func arrayGet(_ offset: Int) -> FunctionExpression { call("array_get", Constant(offset)) }
  /// `array_get`: the element at the offset `offsetExpression` yields.
  public func arrayGet(_ offsetExpression: Expression) -> FunctionExpression { call("array_get", offsetExpression) }
  /// `array_index_of`: where `value` first occurs (-1 if nowhere).
  public func arrayIndexOf(_ value: Sendable) -> FunctionExpression {
    call("array_index_of", PipelineArgument(value), Constant("first"))
  }
  /// `array_index_of`: where `value` first occurs (-1 if nowhere).
  public func arrayIndexOf(_ value: Expression) -> FunctionExpression { call("array_index_of", value, Constant("first")) }
  /// `array_index_of`: where `value` last occurs (-1 if nowhere).
  public func arrayLastIndexOf(_ value: Sendable) -> FunctionExpression {
    call("array_index_of", PipelineArgument(value), Constant("last"))
  }
  /// `array_index_of`: where `value` last occurs (-1 if nowhere).
  public func arrayLastIndexOf(_ value: Expression) -> FunctionExpression { call("array_index_of", value, Constant("last")) }
  /// `array_index_of_all`: every index where `value` occurs.
  public func arrayIndexOfAll(_ value: Sendable) -> FunctionExpression { call("array_index_of_all", PipelineArgument(value)) }
  /// `array_index_of_all`: every index where `value` occurs.
  public func arrayIndexOfAll(_ value: Expression) -> FunctionExpression { call("array_index_of_all", value) }
  /// `maximum`: the largest element.
  public func arrayMaximum() -> FunctionExpression { call("maximum") }
  /// `minimum`: the smallest element.
  public func arrayMinimum() -> FunctionExpression { call("minimum") }
  /// `maximum_n`: the `n` largest elements.
  public func arrayMaximumN(_ n: Int) -> FunctionExpression { call("maximum_n", Constant(n)) }
  /// `maximum_n`: the `n` largest elements.
  public func arrayMaximumN(_ n: Expression) -> FunctionExpression { call("maximum_n", n) }
  /// `minimum_n`: the `n` smallest elements.
  public func arrayMinimumN(_ n: Int) -> FunctionExpression { call("minimum_n", Constant(n)) }
  /// `minimum_n`: the `n` smallest elements.
  public func arrayMinimumN(_ n: Expression) -> FunctionExpression { call("minimum_n", n) }
}
