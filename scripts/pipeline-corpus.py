#!/usr/bin/env python
"""Pipeline request corpus generator for google-cloud-firestore (2.34.1).

Builds pipelines with the official Python API, turns each one into the exact
ExecutePipelineRequest the client would send (via the client's own
PipelineStream._build_request()), and prints one JSON object per line:

  {"case": <name>,
   "python": <source of the pipeline expression>,
   "request": <MessageToDict(request._pb)>   # proto3 JSON, camelCase, full request incl. "database"
   "restBody": <json body the REST transport would POST>   # no "database", enums as ints (nullValue: 0)
  }

Offline only: uses AnonymousCredentials, never calls execute()/stream().

Tests/FirestoreClientTests/Pipeline/PipelineEncodingTests.swift runs this script and
compares each case's restBody with the body the Swift library builds for the same
pipeline (PipelineCorpus.swift, same case names). So every case is one both APIs can
say: an alias of unnest is given as `alias=` (the Python client encodes an aliased
expression there as a map, which no other client sends); `!=` and `not-in` are in
separate queries (Firestore refuses them together, and the Swift query builder says so
before sending); aggregations carry no alias (the Apple SDK's have none, and both sides
then name them field_1, field_2, ...).

Run:
  PYTHONDONTWRITEBYTECODE=1 Benchmarks/peer/.venv/bin/python scripts/pipeline-corpus.py > pipeline_corpus.jsonl
(the venv is the benchmarks' one: python3 -m venv Benchmarks/peer/.venv &&
Benchmarks/peer/.venv/bin/pip install google-cloud-firestore)
(run from a directory that is NOT the firestore_v1 package dir, otherwise its
`types` package shadows the stdlib module.)
"""
from __future__ import annotations

import datetime
import json
import math
import sys

from google.api_core.datetime_helpers import DatetimeWithNanoseconds
from google.auth.credentials import AnonymousCredentials
from google.protobuf import json_format

from google.cloud.firestore_v1 import Client
from google.cloud.firestore_v1._compat import transcode_request
from google.cloud.firestore_v1._helpers import GeoPoint
from google.cloud.firestore_v1.base_aggregation import (
    AvgAggregation,
    CountAggregation,
    SumAggregation,
)
from google.cloud.firestore_v1.base_query import FieldFilter, Or as QOr, And as QAnd
from google.cloud.firestore_v1.base_vector_query import DistanceMeasure
from google.cloud.firestore_v1.pipeline_expressions import (
    AggregateFunction,
    And,
    Array,
    Conditional,
    Constant,
    Count,
    CurrentDocument,
    CurrentTimestamp,
    DocumentMatches,
    Expression,
    Field,
    Map,
    Nor,
    Not,
    Or,
    Rand,
    Score,
    Variable,
    Xor,
)
from google.cloud.firestore_v1.pipeline_result import PipelineResult, PipelineStream
from google.cloud.firestore_v1.pipeline_source import PipelineSource
from google.cloud.firestore_v1.pipeline_types import (
    FindNearestOptions,
    Ordering,
    PipelineDataType,
    SampleOptions,
    SearchOptions,
    TimeGranularity,
    TimePart,
    TimeUnit,
    UnnestOptions,
)
from google.cloud.firestore_v1.query_profile import PipelineExplainOptions
from google.cloud.firestore_v1.services.firestore.transports.rest_base import (
    _BaseFirestoreRestTransport,
)
from google.cloud.firestore_v1.types.document import Value
from google.cloud.firestore_v1.vector import Vector

db = Client(project="p", credentials=AnonymousCredentials())  # database "(default)"
UTC = datetime.timezone.utc
TS = datetime.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=UTC)
TS_WHOLE = datetime.datetime(2024, 1, 1, tzinfo=UTC)
TS_NANOS = DatetimeWithNanoseconds(2024, 5, 6, 7, 8, 9, nanosecond=123456789, tzinfo=UTC)


def fake_txn(txn_id: bytes):
    t = db.transaction()
    t._id = txn_id  # makes transaction.in_progress True; no RPC
    return t


NS = {k: v for k, v in globals().items() if not k.startswith("__")}
NS.update(math=math, datetime=datetime)

# (case name, python expression building the pipeline, kwargs for execute()/stream())
# kwargs values are python expressions too.
CASES: list[tuple[str, str, dict[str, str]]] = [
    # ---------------- sources ----------------
    ("src_collection", 'db.pipeline().collection("books")', {}),
    ("src_collection_leading_slash", 'db.pipeline().collection("/books")', {}),
    ("src_collection_nested_tuple", 'db.pipeline().collection(("users", "u1", "posts"))', {}),
    ("src_collection_group", 'db.pipeline().collection_group("reviews")', {}),
    ("src_database", "db.pipeline().database()", {}),
    ("src_documents", 'db.pipeline().documents(db.document("books/b1"), db.collection("users").document("u1/posts/p9"))', {}),
    ("src_literals",
     'db.pipeline().literals({"name": "joe", "age": 10, "score": 1.5, "ok": True, "none": None},'
     ' {"x": Constant.of("foo-bar").char_length(), "f": Field.of("y"), "nested": {"a": [1, "b"]}})', {}),

    # ---------------- where / boolean ----------------
    ("where_comparisons",
     'db.pipeline().collection("books")'
     '.where(Field.of("a").equal(1)).where(Field.of("b").not_equal("x"))'
     '.where(Field.of("c").greater_than(2.5)).where(Field.of("d").greater_than_or_equal(-3))'
     '.where(Field.of("e").less_than(TS)).where(Field.of("f").less_than_or_equal(True))', {}),
    ("where_logical",
     'db.pipeline().collection("books").where(And(Field.of("a").equal(1), Or(Field.of("b").equal(2), Not(Field.of("c").exists())),'
     ' Nor(Field.of("d").is_absent(), Field.of("e").equal(None)), Xor([Field.of("f").equal(1), Field.of("g").equal(2)])))', {}),
    ("where_static_style",
     'db.pipeline().collection("books").where(Expression.greater_than("rating", 4.0)).where(Expression.between("year", 1990, 2000))', {}),
    ("where_equal_any_lists",
     'db.pipeline().collection("books").where(Field.of("genre").equal_any(["a", "b"]))'
     '.where(Field.of("g2").not_equal_any(Array(["c", Field.of("x")])))'
     '.where(Field.of("tags").array_contains("t")).where(Field.of("tags").array_contains_all(["t1", "t2"]))'
     '.where(Field.of("tags").array_contains_any(Constant.of(["t3", "t4"])))', {}),
    ("where_string_predicates",
     'db.pipeline().collection("books").where(And(Field.of("t").like("%a%"), Field.of("t").regex_contains("a.*"),'
     ' Field.of("t").regex_match("^a$"), Field.of("t").string_contains("x"), Field.of("t").starts_with("p"),'
     ' Field.of("t").ends_with("s"), Field.of("t").is_type(PipelineDataType.STRING), Field.of("u").is_type("int64")))', {}),

    # ---------------- projection stages ----------------
    ("select_mixed",
     'db.pipeline().collection("books").select("title", Field.of("author.name"), Field.of("rating").as_("r"),'
     ' Field.of("price").multiply(Field.of("qty")).as_("total"), Field.DOCUMENT_ID)', {}),
    ("add_fields",
     'db.pipeline().collection("books").add_fields(Field.of("rating").as_("bookRating"), Constant.of(5).add(Field.of("quantity")).as_("totalCost"),'
     ' Field.of("plain"))', {}),
    ("remove_fields", 'db.pipeline().collection("books").remove_fields("rating", Field.of("cost"), "a.b")', {}),
    ("replace_with", 'db.pipeline().collection("people").replace_with(Field.of("parents"))', {}),
    ("replace_with_map_expr", 'db.pipeline().collection("people").replace_with(Map({"n": Field.of("name"), "k": 1}))', {}),
    ("distinct", 'db.pipeline().collection("books").distinct("genre", Field.of("author").to_upper().as_("authorUpper"))', {}),

    # ---------------- sort / limit / offset ----------------
    ("sort_limit_offset",
     'db.pipeline().collection("books").sort(Field.of("rating").descending(), Field.of("title").ascending(),'
     ' Ordering("year", "DESCENDING"), Ordering(Field.of("__name__")))'
     '.offset(20).limit(10)', {}),
    ("sort_by_expression", 'db.pipeline().collection("books").sort(Field.of("a").add(Field.of("b")).descending()).limit(0)', {}),

    # ---------------- aggregate ----------------
    ("aggregate_all_accumulators",
     'db.pipeline().collection("books").aggregate('
     'Count().as_("cnt_all"), Field.of("rating").count().as_("cnt"), Field.of("rating").sum().as_("s"),'
     ' Field.of("rating").average().as_("avg"), Field.of("rating").minimum().as_("mn"), Field.of("rating").maximum().as_("mx"),'
     ' Field.of("author").count_distinct().as_("cd"), Field.of("rating").greater_than(4).count_if().as_("ci"),'
     ' Field.of("t").array_agg().as_("aa"), Field.of("t").array_agg_distinct().as_("aad"), Field.of("t").first().as_("fst"),'
     ' Field.of("t").last().as_("lst"), AggregateFunction.average("price").as_("static_avg"))', {}),
    ("aggregate_groups",
     'db.pipeline().collection("books").aggregate(Field.of("rating").average().as_("avg_rating"),'
     ' groups=["genre", Field.of("author"), Field.of("year").divide(10).as_("decade")])', {}),

    # ---------------- find_nearest ----------------
    ("find_nearest_plain", 'db.pipeline().collection("books").find_nearest("embedding", [0.1, 0.2, 3], DistanceMeasure.EUCLIDEAN)', {}),
    ("find_nearest_options",
     'db.pipeline().collection("books").find_nearest(Field.of("embedding"), Vector([1.0, 2.0]), DistanceMeasure.COSINE,'
     ' options=FindNearestOptions(limit=10, distance_field=Field.of("distance")))', {}),
    ("find_nearest_dot_str", 'db.pipeline().collection("books").find_nearest("e", [1, 2], "dot_product", FindNearestOptions(limit=3))', {}),

    # ---------------- sample / union / unnest / raw ----------------
    ("sample_variants",
     'db.pipeline().collection("books").sample(10).sample(SampleOptions.doc_limit(5)).sample(SampleOptions.percentage(0.5))'
     '.sample(SampleOptions(1, "percent"))', {}),
    ("union", 'db.pipeline().collection("books").union(db.pipeline().collection("magazines").where(Field.of("x").equal(1)))', {}),
    ("unnest_variants",
     'db.pipeline().collection("books").unnest("tags", alias="tag").unnest(Field.of("arr"))'
     '.unnest("tags2", "tag2", options=UnnestOptions(index_field="idx")).unnest(Field.of("m"), alias="al")', {}),
    ("raw_stage",
     'db.pipeline().collection("books").raw_stage("where", Field.of("published").less_than(900))'
     '.raw_stage("custom", Constant.of(1), Value(string_value="s"), options={"opt_a": Constant.of(True), "opt_b": Value(integer_value=7)})', {}),

    # ---------------- search / dml / define / subqueries ----------------
    ("search_string", 'db.pipeline().collection("restaurants").search("waffles OR pancakes")', {}),
    ("search_options",
     'db.pipeline().collection("restaurants").search(SearchOptions(query=And(DocumentMatches("waffles"),'
     ' Field.of("location").geo_distance(GeoPoint(38.9, -107.0)).less_than(1000)), limit=5, retrieval_depth=100,'
     ' sort=Score().descending(), add_fields=[Score().as_("score")], offset=2, language_code="en-US"))', {}),
    ("delete", 'db.pipeline().collection("logs").where(Field.of("status").equal("archived")).delete()', {}),
    ("update_in_place", 'db.pipeline().collection("books").add_fields(Constant.of("Fiction").as_("genre")).remove_fields("old_genre").update()', {}),
    ("update_fields", 'db.pipeline().collection("books").where(Field.of("price").greater_than(50)).update(Constant.of("Discounted").as_("status"))', {}),
    ("define_variables",
     'db.pipeline().collection("products").define(Field.of("price").multiply(0.9).as_("discountedPrice"), CurrentDocument().as_("doc"))'
     '.where(Variable("discountedPrice").less_than(100)).select(Field.of("name"), Variable("doc").get_field("title").as_("t"))', {}),
    ("subquery_array_scalar",
     'db.pipeline().collection("books").define(Field.of("id").as_("book_id")).add_fields('
     'db.pipeline().collection("reviews").where(Field.of("book_id").equal(Variable("book_id"))).select(Field.of("reviewer").as_("name"))'
     '.to_array_expression().as_("reviewers"),'
     ' PipelineSource.subcollection("ratings").aggregate(AggregateFunction.average("rating").as_("value")).to_scalar_expression().as_("avg"))', {}),

    # ---------------- constants ----------------
    ("constants_all_types",
     'db.pipeline().collection("c").select('
     'Constant.of(1).as_("int"), Constant.of(-9007199254740993).as_("bigneg"), Constant.of(2**63 - 1).as_("int64max"),'
     ' Constant.of(1.0).as_("dbl_whole"), Constant.of(1.5).as_("dbl"), Constant.of(-0.0).as_("negzero"), Constant.of(1e300).as_("huge"),'
     ' Constant.of(math.nan).as_("nan"), Constant.of(math.inf).as_("inf"), Constant.of(-math.inf).as_("ninf"),'
     ' Constant.of(True).as_("t"), Constant.of(False).as_("f"), Constant.of(None).as_("null"), Constant.of("héllo \\u2603").as_("str"),'
     ' Constant.of("").as_("empty"), Constant.of(b"\\x00\\xffab").as_("bytes"), Constant.of(TS).as_("ts_micros"), Constant.of(TS_WHOLE).as_("ts_whole"),'
     ' Constant.of(TS_NANOS).as_("ts_nanos"), Constant.of(datetime.datetime(2024, 1, 1, 0, 0, 0, 500000)).as_("ts_naive"),'
     ' Constant.of(GeoPoint(1.5, -2)).as_("geo"), Constant.of(Vector([1, 2.5])).as_("vec"),'
     ' Constant.of(db.document("books/b1")).as_("ref"), Constant.of([1, "a", None]).as_("arr_const"), Constant.of({"k": [1.0], "m": {}}).as_("map_const"))', {}),
    ("implicit_constants_in_functions",
     'db.pipeline().collection("c").select(Field.of("a").add(1).as_("i"), Field.of("a").add(1.0).as_("d"),'
     ' Field.of("a").equal([1, 2]).as_("list_arg"), Field.of("m").equal({"x": 1}).as_("dict_arg"),'
     ' Field.of("a").equal(Constant.of([1, 2])).as_("const_list"), Field.of("v").cosine_distance([1, 2]).as_("list_as_vector"),'
     ' Field.of("v").cosine_distance([1, Field.of("z")]).as_("mixed_list_array"), Field.of("ts").timestamp_add(TimeUnit.DAY, 1).as_("enum_arg"))', {}),

    # ---------------- function families ----------------
    ("fn_arithmetic",
     'db.pipeline().collection("c").select(Field.of("a").add(Field.of("b")).as_("add"), Field.of("a").subtract(1).as_("sub"),'
     ' Field.of("a").multiply(2.5).as_("mul"), Field.of("a").divide(3).as_("div"), Field.of("a").mod(4).as_("mod"),'
     ' Expression.add("a", 5).as_("static_add"))', {}),
    ("fn_math",
     'db.pipeline().collection("c").select(Field.of("x").abs().as_("abs"), Field.of("x").ceil().as_("ceil"), Field.of("x").exp().as_("exp"),'
     ' Field.of("x").floor().as_("floor"), Field.of("x").ln().as_("ln"), Field.of("x").log(2).as_("log"), Field.of("x").log10().as_("log10"),'
     ' Field.of("x").pow(2).as_("pow"), Field.of("x").round().as_("round"), Field.of("x").sqrt().as_("sqrt"), Field.of("x").trunc().as_("trunc"),'
     ' Field.of("x").trunc(2).as_("trunc2"), Field.of("x").logical_maximum(1, Field.of("y")).as_("lmax"),'
     ' Field.of("x").logical_minimum(0).as_("lmin"), Rand().as_("rand"))', {}),
    ("fn_string",
     'db.pipeline().collection("c").select(Field.of("s").char_length().as_("cl"), Field.of("s").byte_length().as_("bl"),'
     ' Field.of("s").string_concat("-", Field.of("t"), 1).as_("cat"), Field.of("s").to_lower().as_("lo"), Field.of("s").to_upper().as_("up"),'
     ' Field.of("s").trim().as_("tr"), Field.of("s").ltrim().as_("lt"), Field.of("s").ltrim("x").as_("lt2"), Field.of("s").rtrim(b"y").as_("rt2"),'
     ' Field.of("s").string_reverse().as_("rev"), Field.of("s").substring(1).as_("sub1"), Field.of("s").substring(1, 3).as_("sub2"),'
     ' Field.of("arr").join(",").as_("join"), Field.of("s").split(" ").as_("split"), Field.of("s").string_repeat(3).as_("rep"),'
     ' Field.of("s").string_replace_all("a", "b").as_("ra"), Field.of("s").string_replace_one("a", "b").as_("r1"),'
     ' Field.of("s").string_index_of("q").as_("idx"), Field.of("s").regex_find("a+").as_("rf"), Field.of("s").regex_find_all("a+").as_("rfa"),'
     ' Field.of("s").concat("x", [1]).as_("concat"), Field.of("s").length().as_("len"))', {}),
    ("fn_array",
     'db.pipeline().collection("c").select(Field.of("a").array_length().as_("len"), Field.of("a").array_reverse().as_("rev"),'
     ' Field.of("a").array_concat([1, 2], Field.of("b")).as_("cat"), Field.of("a").array_get(0).as_("get"), Field.of("a").offset(1).as_("off"),'
     ' Field.of("a").array_first().as_("f"), Field.of("a").array_last().as_("l"), Field.of("a").array_first_n(2).as_("fn"),'
     ' Field.of("a").array_last_n(2).as_("ln"), Field.of("a").array_maximum().as_("amax"), Field.of("a").array_minimum().as_("amin"),'
     ' Field.of("a").array_maximum_n(2).as_("amaxn"), Field.of("a").array_minimum_n(2).as_("aminn"), Field.of("a").array_slice(1).as_("sl1"),'
     ' Field.of("a").array_slice(1, 2).as_("sl2"), Field.of("a").array_index_of(3).as_("io"), Field.of("a").array_index_of_all(3).as_("ioa"),'
     ' Array([1, Field.of("x")]).as_("arr_fn"))', {}),
    ("fn_array_lambdas",
     'db.pipeline().collection("c").select(Field.of("a").array_filter(Variable("e").greater_than(1), "e").as_("filt"),'
     ' Field.of("a").array_transform(Variable("e").multiply(2), "e").as_("tx"),'
     ' Field.of("tags").array_transform(Variable("tag").string_concat(Variable("i")), element_alias="tag", index_alias="i").as_("tx2"))', {}),
    ("fn_map",
     'db.pipeline().collection("c").select(Field.of("m").map_get("k").as_("get"), Field.of("m").map_set("k", 1).as_("set"),'
     ' Field.of("m").map_remove("k").as_("rm"), Field.of("m").map_merge({"a": 1}, Field.of("n")).as_("merge"),'
     ' Field.of("m").map_keys().as_("keys"), Field.of("m").map_values().as_("vals"), Field.of("m").map_entries().as_("ents"),'
     ' Map({"a": 1, "b": Field.of("x")}).as_("map_fn"), Field.of("m").get_field("k").as_("gf"))', {}),
    ("fn_timestamp",
     'db.pipeline().collection("c").select(Field.of("t").timestamp_to_unix_micros().as_("tum"), Field.of("t").timestamp_to_unix_millis().as_("tumi"),'
     ' Field.of("t").timestamp_to_unix_seconds().as_("tus"), Field.of("n").unix_micros_to_timestamp().as_("umt"),'
     ' Field.of("n").unix_millis_to_timestamp().as_("umit"), Field.of("n").unix_seconds_to_timestamp().as_("ust"),'
     ' Field.of("t").timestamp_add("hour", 2).as_("tadd"), Field.of("t").timestamp_subtract(TimeUnit.MINUTE, Field.of("m")).as_("tsub"),'
     ' Field.of("t").timestamp_trunc(TimeGranularity.WEEK_MONDAY).as_("ttr"), Field.of("t").timestamp_trunc("day", "America/New_York").as_("ttr2"),'
     ' Field.of("t").timestamp_extract(TimePart.DAY_OF_WEEK).as_("tex"), Field.of("t").timestamp_extract("year", "UTC").as_("tex2"),'
     ' Field.of("t").timestamp_diff(TS, TimeUnit.SECOND).as_("tdiff"), CurrentTimestamp().as_("now"))', {}),
    ("fn_vector_geo",
     'db.pipeline().collection("c").select(Field.of("v").cosine_distance(Vector([1.0, 0.0])).as_("cos"),'
     ' Field.of("v").euclidean_distance([0.5, 1.5]).as_("euc"), Field.of("v").dot_product(Field.of("w")).as_("dot"),'
     ' Field.of("v").vector_length().as_("vl"), Field.of("loc").geo_distance((1.0, 2.0)).as_("gd"))', {}),
    ("fn_logic_misc",
     'db.pipeline().collection("c").select(Field.of("a").if_absent(0).as_("ia"), Field.of("a").is_error().as_("ie"),'
     ' Field.of("a").divide(0).if_error(-1).as_("ife"), Field.of("a").coalesce(Field.of("b"), "d").as_("co"),'
     ' Field.of("a").equal(1).switch_on("one", Field.of("a").equal(2), "two", "other").as_("sw"),'
     ' Field.of("a").if_null(Field.of("b")).as_("inull"), Field.of("a").type().as_("ty"), Field.of("a").cmp(5).as_("cmp"),'
     ' Field.of("a").storage_size().as_("ss"), Field.of("__name__").collection_id().as_("cid"), Field.of("__name__").document_id().as_("did"),'
     ' Conditional(Field.of("a").greater_than(1), Constant.of("big"), Field.of("a")).as_("cond"), Field.of("a").exists().as_("ex"))', {}),

    # ---------------- request-level options ----------------
    ("opt_explain", 'db.pipeline().collection("books").limit(1)', {"explain_options": "PipelineExplainOptions()"}),
    ("opt_explain_mode_and_additional",
     'db.pipeline().collection("books").limit(1)',
     {"explain_options": 'PipelineExplainOptions(mode="explain")',
      "additional_options": '{"index_mode": Constant.of("recommended"), "custom": Value(integer_value=3)}'}),
    ("opt_additional_overrides_explain",
     'db.pipeline().collection("books")',
     {"explain_options": "PipelineExplainOptions()",
      "additional_options": '{"explain_options": Value(map_value={"fields": {"mode": Value(string_value="explain"), "output_format": Value(string_value="json")}})}'}),
    ("opt_read_time", 'db.pipeline().collection("books")', {"read_time": "TS"}),
    ("opt_transaction", 'db.pipeline().collection("books")', {"transaction": 'fake_txn(b"txn-123")'}),

    # ---------------- Query -> pipeline (create_from) ----------------
    ("query_collection_ref", 'db.pipeline().create_from(db.collection("books"))', {}),
    ("query_filters_order_limit",
     'db.pipeline().create_from(db.collection("books").where(filter=FieldFilter("rating", ">", 4))'
     '.where(filter=FieldFilter("genre", "==", "sf")).where(filter=FieldFilter("x", "!=", 1))'
     '.where(filter=FieldFilter("tags", "array_contains", "t")).where(filter=FieldFilter("g", "in", ["a", "b"]))'
     '.where(filter=FieldFilter("n", "==", None)).where(filter=FieldFilter("nan", "==", math.nan))'
     '.order_by("rating", direction="DESCENDING").order_by("title").limit(10).offset(5))', {}),
    ("query_not_in", 'db.pipeline().create_from(db.collection("books").where(filter=FieldFilter("h", "not-in", [1, "x"])))', {}),
    ("query_composite_or",
     'db.pipeline().create_from(db.collection("books").where(filter=QOr([FieldFilter("a", "==", 1), QAnd([FieldFilter("b", "<", 2), FieldFilter("c", ">=", 3)])])))', {}),
    ("query_select_cursors",
     'db.pipeline().create_from(db.collection("books").select(["title", "year"]).order_by("year").order_by("title")'
     '.start_at({"year": 1990, "title": "A"}).end_before({"year": 2000}))', {}),
    ("query_limit_to_last", 'db.pipeline().create_from(db.collection("books").order_by("year").limit_to_last(3))', {}),
    ("query_collection_group_subcollection",
     'db.pipeline().create_from(db.collection_group("posts").where(filter=FieldFilter("author", "==", db.document("users/u1"))))', {}),
    ("query_subcollection", 'db.pipeline().create_from(db.collection("users", "u1", "posts").order_by("__name__").start_after({"__name__": db.document("users/u1/posts/p1")}))', {}),
    ("query_aggregation",
     'db.pipeline().create_from(db.collection("books").where(filter=FieldFilter("a", "==", 1)).count())', {}),
    ("query_aggregation_multi",
     'db.pipeline().create_from(db.collection("books")._aggregation_query().count().sum("price").avg("rating"))', {}),
]


def build_request(pipeline, kwargs):
    # Exactly what Pipeline.stream()/execute() do before calling the RPC.
    full = dict(transaction=None, read_time=None, explain_options=None, additional_options={})
    full.update(kwargs)
    stream = PipelineStream(PipelineResult, pipeline, **full)
    return stream._build_request()


def rest_body(request):
    http_options = _BaseFirestoreRestTransport._BaseExecutePipeline._get_http_options()
    transcoded, body, query_params = transcode_request(http_options, request, rest_numeric_enums=True)
    return transcoded, json.loads(body), query_params


def main(out=sys.stdout):
    seen = set()
    for name, src, kw_src in CASES:
        assert name not in seen, name
        seen.add(name)
        pipeline = eval(src, NS)
        kwargs = {k: eval(v, NS) for k, v in kw_src.items()}
        req = build_request(pipeline, kwargs)
        request_json = json_format.MessageToDict(req._pb)  # camelCase, int64 as str, nullValue None
        transcoded, body, qp = rest_body(req)
        rec = {"case": name, "python": src, "request": request_json, "restBody": body}
        if kw_src:
            rec["pythonExecuteKwargs"] = kw_src
        out.write(json.dumps(rec, sort_keys=True, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
