import FirestoreWire

extension Pipeline {
  /// Adds fields computed by `selectables`, keeping the others (`add_fields`).
  public func addFields(_ selectables: [Selectable]) -> Pipeline {
    adding(PipelineStageSpec(name: "add_fields", args: [.selections(selectables, stage: "addFields")]))
  }

  /// Removes `fields` (`remove_fields`).
  public func removeFields(_ fields: [Field]) -> Pipeline {
    adding(PipelineStageSpec(name: "remove_fields", args: fields.map { .expression($0) }))
  }

  /// Removes the fields at the dotted paths `fields` (`remove_fields`).
  public func removeFields(_ fields: [String]) -> Pipeline { removeFields(fields.map(Field.init)) }

  /// Keeps only `selections`, each under its name (`select`).
  public func select(_ selections: [Selectable]) -> Pipeline {
    adding(PipelineStageSpec(name: "select", args: [.selections(selections, stage: "select")]))
  }

  /// Keeps only the fields at the dotted paths `selections` (`select`).
  public func select(_ selections: [String]) -> Pipeline { select(selections.map(Field.init)) }

  /// Keeps the documents for which `condition` holds (`where`).
  public func `where`(_ condition: BooleanExpression) -> Pipeline {
    adding(PipelineStageSpec(name: "where", args: [.expression(condition)]))
  }

  /// Skips the first `offset` documents (`offset`).
  public func offset(_ offset: Int32) -> Pipeline {
    adding(PipelineStageSpec(name: "offset", args: [.wire(.constant(.integer(Int64(offset))))]))
  }

  /// Keeps at most `limit` documents (`limit`).
  public func limit(_ limit: Int32) -> Pipeline {
    adding(PipelineStageSpec(name: "limit", args: [.wire(.constant(.integer(Int64(limit))))]))
  }

  /// Binds each of `variables` under its name for the stages after it, where ``Variable``
  /// reads it, subqueries included (`let`).
  public func define(_ variables: [AliasedExpression]) -> Pipeline {
    adding(PipelineStageSpec(name: "let", args: [.selections(variables, stage: "define")]))
  }

  /// One result per distinct combination of the fields at `groups` (`distinct`).
  public func distinct(_ groups: [String]) -> Pipeline { distinct(groups.map(Field.init)) }

  /// One result per distinct combination of `groups` (`distinct`).
  public func distinct(_ groups: [Selectable]) -> Pipeline {
    adding(PipelineStageSpec(name: "distinct", args: [.selections(groups, stage: "distinct")]))
  }

  /// Computes `aggregates` over all documents, or over each group of equal `groups`
  /// (`aggregate`).
  public func aggregate(_ aggregates: [AliasedAggregate], groups: [Selectable]? = nil) -> Pipeline {
    adding(
      PipelineStageSpec(
        name: "aggregate", args: [.aggregates(aggregates), .selections(groups ?? [], stage: "aggregate")]))
  }

  /// The documents nearest to `vectorValue` by the vector in `field` (`find_nearest`),
  /// at most `limit` of them, each with its distance in `distanceField` when given.
  public func findNearest(
    field: Field, vectorValue: VectorValue, distanceMeasure: DistanceMeasure, limit: Int? = nil, distanceField: String? = nil
  ) -> Pipeline {
    var stage = PipelineStageSpec(
      name: "find_nearest",
      args: [.expression(field), .expression(Constant(vectorValue)), .wire(.constant(.string(distanceMeasure.rawValue)))])
    if let limit { stage.options["limit"] = .wire(.constant(.integer(Int64(limit)))) }
    if let distanceField { stage.options["distance_field"] = .expression(Field(distanceField)) }
    return adding(stage)
  }

  /// Orders the documents by `orderings`, the first deciding first (`sort`).
  public func sort(_ orderings: [Ordering]) -> Pipeline {
    adding(PipelineStageSpec(name: "sort", args: orderings.map { .ordering($0) }))
  }

  /// Replaces each document by the map `expression` yields (`replace_with`).
  public func replace(with expression: Expression) -> Pipeline {
    adding(PipelineStageSpec(name: "replace_with", args: [.expression(expression), .wire(.constant(.string("full_replace")))]))
  }

  /// Replaces each document by the map in the field `fieldName` (`replace_with`).
  public func replace(with fieldName: String) -> Pipeline { replace(with: Field(fieldName)) }

  /// Keeps `count` documents chosen at random (`sample`).
  public func sample(count: Int64) -> Pipeline {
    adding(PipelineStageSpec(name: "sample", args: [.wire(.constant(.integer(count))), .wire(.constant(.string("documents")))]))
  }

  /// Keeps each document with probability `percentage` (0 to 1) (`sample`).
  public func sample(percentage: Double) -> Pipeline {
    adding(PipelineStageSpec(name: "sample", args: [.wire(.constant(.double(percentage))), .wire(.constant(.string("percent")))]))
  }

  /// Full-text search for `query` (a ``DocumentMatches`` or a condition using one); it
  /// must be the first stage after the source (`search`).
  public func search(
    query: Expression, languageCode: String? = nil, retrievalDepth: Int? = nil, sort: [Ordering]? = nil, offset: Int? = nil,
    limit: Int? = nil, addFields: [Selectable]? = nil
  ) -> Pipeline {
    var stage = PipelineStageSpec(name: "search", options: ["query": .expression(query)])
    if let limit { stage.options["limit"] = .wire(.constant(.integer(Int64(limit)))) }
    if let retrievalDepth { stage.options["retrieval_depth"] = .wire(.constant(.integer(Int64(retrievalDepth)))) }
    if let sort { stage.options["sort"] = .orderings(sort) }
    if let addFields { stage.options["add_fields"] = .selections(addFields, stage: "search") }
    if let offset { stage.options["offset"] = .wire(.constant(.integer(Int64(offset)))) }
    if let languageCode { stage.options["language_code"] = .wire(.constant(.string(languageCode))) }
    return adding(stage)
  }

  /// Full-text search for the query text `query` (`search`); see
  /// ``search(query:languageCode:retrievalDepth:sort:offset:limit:addFields:)-(Expression,_,_,_,_,_,_)``.
  public func search(
    query: String, languageCode: String? = nil, retrievalDepth: Int? = nil, sort: [Ordering]? = nil, offset: Int? = nil,
    limit: Int? = nil, addFields: [Selectable]? = nil
  ) -> Pipeline {
    search(
      query: DocumentMatches(query) as Expression, languageCode: languageCode, retrievalDepth: retrievalDepth, sort: sort,
      offset: offset, limit: limit, addFields: addFields)
  }

  /// The documents of this pipeline and those of `other` (`union`).
  public func union(with other: Pipeline) -> Pipeline {
    adding(PipelineStageSpec(name: "union", args: [.pipeline(other)]))
  }

  /// One result per element of the array `field` selects, the element written to the
  /// selection's name (`Field("tags").as("tag")`; a bare field keeps its own), and its
  /// index to `indexField` when given (`unnest`).
  public func unnest(_ field: Selectable, indexField: String? = nil) -> Pipeline {
    guard let named = field as? any NamedSelection else {
      return adding(PipelineStageSpec(name: "unnest", args: [.invalid(.invalidArgument("unnest takes a Field or an aliased expression"))]))
    }
    var stage = PipelineStageSpec(name: "unnest", args: [.expression(named.expression), .expression(Field(named.alias))])
    if let indexField { stage.options["index_field"] = .expression(Field(indexField)) }
    return adding(stage)
  }

  /// A stage this library has no method for, by its backend `name`: `params` and
  /// `options` are converted as `Sendable` arguments are (a wire `Value` is sent as it is).
  public func rawStage(name: String, params: [Sendable], options: [String: Sendable]? = nil) -> Pipeline {
    adding(
      PipelineStageSpec(name: name, args: params.map { .value($0) }, options: (options ?? [:]).mapValues { .value($0) }))
  }
}
