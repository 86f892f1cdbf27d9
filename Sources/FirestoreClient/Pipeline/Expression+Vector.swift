extension Expression {
  /// `vector_length`: the number of dimensions of this vector.
  public func vectorLength() -> FunctionExpression { call("vector_length") }
  /// `cosine_distance`: the cosine distance to the vector `expression` yields.
  public func cosineDistance(_ expression: Expression) -> FunctionExpression { call("cosine_distance", expression) }
  /// `cosine_distance`: the cosine distance to `vector`.
  public func cosineDistance(_ vector: VectorValue) -> FunctionExpression { call("cosine_distance", Constant(vector)) }
  /// `cosine_distance`: the cosine distance to the vector `vector`.
  public func cosineDistance(_ vector: [Double]) -> FunctionExpression { call("cosine_distance", Constant(VectorValue(vector))) }
  /// `dot_product`: the dot product with the vector `expression` yields.
  public func dotProduct(_ expression: Expression) -> FunctionExpression { call("dot_product", expression) }
  /// `dot_product`: the dot product with `vector`.
  public func dotProduct(_ vector: VectorValue) -> FunctionExpression { call("dot_product", Constant(vector)) }
  /// `dot_product`: the dot product with the vector `vector`.
  public func dotProduct(_ vector: [Double]) -> FunctionExpression { call("dot_product", Constant(VectorValue(vector))) }
  /// `euclidean_distance`: the Euclidean distance to the vector `expression` yields.
  public func euclideanDistance(_ expression: Expression) -> FunctionExpression { call("euclidean_distance", expression) }
  /// `euclidean_distance`: the Euclidean distance to `vector`.
  public func euclideanDistance(_ vector: VectorValue) -> FunctionExpression { call("euclidean_distance", Constant(vector)) }
  /// `euclidean_distance`: the Euclidean distance to the vector `vector`.
  public func euclideanDistance(_ vector: [Double]) -> FunctionExpression {
    call("euclidean_distance", Constant(VectorValue(vector)))
  }
}

extension Field {
  /// `geo_distance`: the distance in meters from this geo point field to `location`.
  public func geoDistance(_ location: GeoPoint) -> Expression { call("geo_distance", Constant(location)) }
}
