import FirestoreWire

/// Where a pipeline's documents come from: the first stage of every ``Pipeline``, made
/// by ``Firestore/pipeline()``.
public struct PipelineSource: Sendable {
  let firestore: Firestore

  /// The documents of the collection at `path` (`"books"`, `"users/ada/posts"`).
  /// `forceIndex` names an index the backend must use.
  public func collection(_ path: String, forceIndex: String? = nil) -> Pipeline {
    collection(firestore.collection(path), forceIndex: forceIndex)
  }

  /// The documents of `coll`, which must be of this database.
  public func collection(_ coll: CollectionReference, forceIndex: String? = nil) -> Pipeline {
    var stage = PipelineStageSpec(name: "collection")
    if let error = coll.pathError ?? foreign(coll.firestore, "collection") {
      stage.args = [.invalid(error)]
    } else {
      // The stage names the collection relative to the database, with a leading slash.
      stage.args = [.wire(.constant(.reference("/" + coll.path)))]
    }
    if let forceIndex { stage.options["force_index"] = .wire(.constant(.string(forceIndex))) }
    return start(stage)
  }

  /// The documents of every collection with the ID `collectionId`, at any depth.
  public func collectionGroup(_ collectionId: String, forceIndex: String? = nil) -> Pipeline {
    var stage = PipelineStageSpec(name: "collection_group")
    if let error = firestore.collectionGroup(collectionId).recordedError {
      stage.args = [.invalid(error)]
    } else {
      // An empty reference is the database's root: the group is searched everywhere.
      stage.args = [.wire(.constant(.reference(""))), .wire(.constant(.string(collectionId)))]
    }
    if let forceIndex { stage.options["force_index"] = .wire(.constant(.string(forceIndex))) }
    return start(stage)
  }

  /// Every document of the database.
  public func database() -> Pipeline { start(PipelineStageSpec(name: "database")) }

  /// The documents `docs`, which must be of this database.
  public func documents(_ docs: [DocumentReference]) -> Pipeline {
    var stage = PipelineStageSpec(name: "documents")
    for doc in docs {
      if let error = doc.pathError ?? foreign(doc.firestore, "document") {
        stage.args.append(.invalid(error))
      } else {
        stage.args.append(.wire(.constant(.reference("/" + doc.path))))
      }
    }
    return start(stage)
  }

  /// The documents at the slash paths `paths` (`"books/b1"`).
  public func documents(_ paths: [String]) -> Pipeline { documents(paths.map(firestore.document)) }

  /// The documents `documents`, given here rather than read, as the Python client's
  /// `literals` source: a value of each may be an expression, which is evaluated; arrays
  /// and dictionaries are constants.
  public func literals(_ documents: [[String: Sendable]]) -> Pipeline {
    start(PipelineStageSpec(name: "literals", args: documents.map { .literal($0) }))
  }

  /// The pipeline that runs `query`: its source, filters, order, cursors, limit and
  /// offset as stages, as the official clients convert them.
  public func create(from query: Query) -> Pipeline { PipelineQueryConversion(query: query).pipeline(firestore: firestore) }

  /// The pipeline that runs `aggregateQuery`: its query's stages, then an `aggregate`
  /// stage whose outputs are named `field_1`, `field_2`, … in order, as the Python client
  /// names aggregations without an alias.
  public func create(from aggregateQuery: AggregateQuery) -> Pipeline {
    let pipeline = create(from: aggregateQuery.query)
    var aggregates: [AliasedAggregate] = []
    for (i, field) in aggregateQuery.aggregations.enumerated() {
      if let error = field.error {
        return pipeline.adding(PipelineStageSpec(name: "aggregate", args: [.invalid(.invalidArgument(error))]))
      }
      let function: AggregateFunction
      switch field.kind {
      case .count: function = CountAll()
      case .sum(let path): function = Field(path).sum()
      case .average(let path): function = Field(path).average()
      }
      aggregates.append(function.as("field_\(i + 1)"))
    }
    return pipeline.aggregate(aggregates)
  }

  private func start(_ stage: PipelineStageSpec) -> Pipeline { Pipeline(firestore: firestore, stages: [stage]) }

  private func foreign(_ other: Firestore, _ what: String) -> FirestoreError? {
    guard other.databaseName != firestore.databaseName else { return nil }
    return .invalidArgument("the \(what) is in \(other.databaseName), not in this pipeline's database \(firestore.databaseName)")
  }
}

extension Firestore {
  /// A pipeline of stages already in request form, for tools that take pipelines as REST
  /// JSON (the `firestore pipeline` command).
  package func pipeline(stages: [PipelineStage]) -> Pipeline {
    Pipeline(
      firestore: self,
      stages: stages.map { PipelineStageSpec(name: $0.name, args: $0.args.map { .wire($0) }, options: $0.options.mapValues { .wire($0) }) })
  }

  /// A new pipeline query on this database (Enterprise edition); pick its source next.
  ///
  /// ```swift
  /// let snapshot = try await db.pipeline().collection("books").where(Field("year").lessThan(1900)).execute()
  /// ```
  public func pipeline() -> PipelineSource { PipelineSource(firestore: self) }
}
