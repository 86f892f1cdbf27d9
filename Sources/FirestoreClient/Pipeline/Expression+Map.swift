extension Expression {
  /// `map_get`: the value of this map at `subfield`.
  public func mapGet(_ subfield: String) -> FunctionExpression { call("map_get", Constant(subfield)) }
  /// `get_field`: the field `key` of this map or document.
  public func getField(_ key: String) -> FunctionExpression { call("get_field", Constant(key)) }
  /// `get_field`: the field whose name `expression` yields.
  public func getField(_ expression: Expression) -> FunctionExpression { call("get_field", expression) }
  /// `map_remove`: this map without `key`.
  public func mapRemove(_ key: String) -> FunctionExpression { call("map_remove", Constant(key)) }
  /// `map_remove`: this map without the key `keyExpression` yields.
  public func mapRemove(_ keyExpression: Expression) -> FunctionExpression { call("map_remove", keyExpression) }
  /// `map_merge`: this map with the entries of `maps` laid over it, later ones winning.
  public func mapMerge(_ maps: [[String: Sendable]]) -> FunctionExpression {
    FunctionExpression(functionName: "map_merge", args: [self] + maps.map { MapExpression($0) })
  }
  /// `map_merge`: this map with the entries of the maps `maps` yield laid over it.
  public func mapMerge(_ maps: [Expression]) -> FunctionExpression {
    FunctionExpression(functionName: "map_merge", args: [self] + maps)
  }
  /// `map_set`: this map with `key` set to `value` (and more key–value pairs after them).
  public func mapSet(_ key: Expression, _ value: Expression, _ moreKeyValues: Expression...) -> FunctionExpression {
    FunctionExpression(functionName: "map_set", args: [self, key, value] + moreKeyValues)
  }
  /// `map_set`: this map with `key` set to `value` (and more key–value pairs after them).
  public func mapSet(_ key: String, _ value: Sendable, _ moreKeyValues: Sendable...) -> FunctionExpression {
    FunctionExpression(
      functionName: "map_set", args: [self, Constant(key), PipelineArgument(value)] + moreKeyValues.map(PipelineArgument.init))
  }
  /// `map_keys`: this map's keys.
  public func mapKeys() -> FunctionExpression { call("map_keys") }
  /// `map_values`: this map's values.
  public func mapValues() -> FunctionExpression { call("map_values") }
  /// `map_entries`: this map's entries, as maps of `k` and `v`.
  public func mapEntries() -> FunctionExpression { call("map_entries") }
}
