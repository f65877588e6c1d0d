/* ge — the command-line tool (DESIGN §9): a thin client of ge_session.h,
 * which owns the compile pipeline and its options. One translation unit
 * compiling every module's implementation.
 *
 *   ge [-v|-vv] run     MODEL [--input NAME=FILE.npy]... [--outdir DIR] [--repeat N]
 *                             [--warmup N] [--threads N] [--option KEY=VALUE]...
 *                             [--executor auto|sequential|topological|multi-thread|priority|streams]
 *                             [--mode sink|host] [--check-order] [--concurrency C]
 *                             [--timeout-ms N] [--profile FILE.json] [--plugin ENGINE.so]...
 *   ge [-v|-vv] inspect MODEL [--json] [--dot FILE] [--option KEY=VALUE]... [--plugin ENGINE.so]...
 *
 * Both compile the model in a session (arguments -> options -> session ->
 * output); run then loads it and runs it on .npy inputs. -v prints what
 * each compile stage decided and how long it took, -vv every node's too.
 * MODEL is an ONNX model (.onnx) or a graph file written by ge_graph_save.
 */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_session.h"
#include "tools/npy.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

static int usage(FILE *f) {
  fprintf(f,
          "usage: ge [-v|-vv] run MODEL [--input NAME=FILE.npy]... [--outdir DIR] [--repeat N] [--warmup N]\n"
          "              [--threads N] [--option KEY=VALUE]... [--plugin ENGINE.so]...\n"
          "              [--executor auto|sequential|topological|multi-thread|priority|streams]\n"
          "              [--mode sink|host] [--check-order] [--concurrency C]\n"
          "              [--timeout-ms N] [--profile FILE.json]\n"
          "       ge [-v|-vv] inspect MODEL [--json] [--dot FILE] [--option KEY=VALUE]... [--plugin ENGINE.so]...\n"
          "\n"
          "  run       run a model on .npy inputs; writes DIR/<output>.npy and prints\n"
          "            the median latency over the repeats (median_ms=...) and the\n"
          "            median CPU time of a run, all threads (cpu_ms=...)\n"
          "  inspect   print a model with the engine of every node and why, its\n"
          "            streams, events and memory plan (a text dump, or with --json\n"
          "            one JSON document, nodes in execution order); --dot writes\n"
          "            Graphviz (outline colour: stream; events as Send/Recv nodes)\n"
          "  --plugin  load engines from a shared library (engine ABI, ge_graph.h)\n"
          "  -v, -vv   what each compile stage decided and how long it took; -vv per node too\n"
          "  --executor  how the run goes (auto: as GE chooses); --mode: the stream executor's\n"
          "            launch (sink: task lists built at load, one launch; host: task by task);\n"
          "            --check-order: every run checks that each dependency finished first;\n"
          "            --concurrency C: then REPEAT requests with C in flight (one per caller\n"
          "            stream), each checked against the plain run; prints requests/s\n"
          "  --timeout-ms N  a run still going after N ms is aborted (the error names the node)\n"
          "  --profile FILE.json  writes the last run as a Chrome trace (Perfetto) and prints a\n"
          "            per-op table over the timed runs on stderr\n"
          "options:\n"
          "  ge.topoSortingMode=0|1|3          execution order: BFS (default), DFS, stable reverse DFS\n"
          "  ge.engineType=AIcoreEngine|VectorEngine   core engine (they exclude each other)\n"
          "  ge.exec.exclude_engines=A,B,...   engines not to use: AiCore, AiVector, Dsa, Dvpp,\n"
          "                                    AiCpuAscend, AiCpu, HostCpu, Hccl, FftsPlus\n"
          "  ge.exec.hostExecFlag=0|1          run every compute node on the host CPU engine\n"
          "  ge.dynamicBatchSize=1,4,8         shape tiers: one static branch per tier, picked by the\n"
          "  ge.dynamicImageSize=H,W;H,W       input shapes at run time (mutually exclusive); the\n"
          "  ge.dynamicDims=a,b;c,d            dynamic dims are -1 or symbolic, or marked -1 in\n"
          "  ge.inputShape=NAME:1,-1,3;...     ge.inputShape (needed by ge.dynamicDims)\n"
          "  ge.inputFormat=NCHW|NHWC          where H and W are for ge.dynamicImageSize\n"
          "  ge.enableSingleStream=0|1         every node on one stream\n"
          "  ge.streamMaxParallelNum=N         streams per engine from dependencies (default 8)\n"
          "  ge.streamTaskLimit=N              tasks per physical stream (default: no split)\n"
          "  ge.exec.hcomParallel=0|1          AllReduce successors on streams of their own\n"
          "  ge.exec.enableEngineParallel=0|1  dynamic shapes: one stream per engine\n"
          "  ac_parallel_enable=0|1            dynamic shapes: AI CPU beside AI Core\n"
          "  ge.event=event|notify             sync by events or notifies (at most 1024)\n"
          "  ge.exec.disableReuseMemory=0|1    every tensor its own bytes\n"
          "  ge.graphMemoryMaxSize=BYTES       ceiling on the executor's memory (default 3/4 of RAM)\n");
  return f == stdout ? 0 : 2;
}

/* The session the subcommands compile through, the graph's id in it, and
 * the flags every subcommand takes (kept as argv pointers: no fixed limit). */
typedef struct tool {
  ge_session *s;
  uint32_t id;
  const char **options, **plugins; /* KEY=VALUE and ENGINE.so, argc slots each */
  int num_options, num_plugins, verbose;
  ge_executor_kind executor; /* run: --executor, --mode, --check-order */
  ge_launch_mode launch;
  int check_order;
  uint32_t timeout_ms; /* run: --timeout-ms */
  const char *profile; /* run: --profile FILE.json */
} tool;

/* ge -v: what each stage decided (INFO); -vv: per node too (DEBUG). */
static void log_stderr(void *user, ge_log_level level, const char *module, const char *message) {
  (void)user;
  fprintf(stderr, "ge: %s%s: %s\n", level <= GE_LOG_WARN ? "warning: " : "", module, message);
}

/* Flags every subcommand takes; returns how many argv entries it used (0:
 * not one of them). */
static int common_flag(int argc, char **argv, int i, tool *t) {
  if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "-vv")) return t->verbose = (int)strlen(argv[i]) - 1, 1;
  if (i + 1 >= argc) return 0;
  if (!strcmp(argv[i], "--option")) return t->options[t->num_options++] = argv[i + 1], 2;
  if (!strcmp(argv[i], "--plugin")) return t->plugins[t->num_plugins++] = argv[i + 1], 2;
  return 0;
}

static int tool_init(tool *t, int argc, int verbose) {
  memset(t, 0, sizeof *t);
  t->id = 1;
  t->verbose = verbose;
  t->options = (const char **)calloc((size_t)argc + 1, sizeof(char *));
  t->plugins = (const char **)calloc((size_t)argc + 1, sizeof(char *));
  if (!t->options || !t->plugins) fprintf(stderr, "ge: out of memory\n");
  return t->options && t->plugins;
}

static void tool_free(tool *t) {
  ge_session_free(t->s);
  free(t->options);
  free(t->plugins);
}

/* A session with the flags' options and plugins, holding the model as
 * graph t->id; compiled. Prints the error and returns 0 on failure. */
static int tool_compile(const char *cmd, tool *t, const char *model, int threads) {
  ge_session_desc d;
  ge_error err;
  int i;
  memset(&d, 0, sizeof d);
  d.num_threads = threads;
  d.executor = t->executor, d.launch = t->launch, d.check_order = t->check_order;
  d.timeout_ms = t->timeout_ms, d.profile = t->profile != NULL;
  d.logger.fn = log_stderr;
  d.logger.level = t->verbose > 1 ? GE_LOG_DEBUG : t->verbose ? GE_LOG_INFO : GE_LOG_WARN;
  if (ge_session_create(&d, &t->s, &err)) goto fail;
  for (i = 0; i < t->num_plugins; i++) /* first: options may name their engines */
    if (ge_session_load_plugin(t->s, t->plugins[i], &err)) goto fail;
  for (i = 0; i < t->num_options; i++) {
    const char *kv = t->options[i], *eq = strchr(kv, '=');
    char key[256];
    if (!eq || eq == kv) {
      fprintf(stderr, "ge %s: option '%s' needs KEY=VALUE\n", cmd, kv);
      return 0;
    }
    snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
    if (ge_session_set_option(t->s, key, eq + 1, &err)) goto fail;
  }
  if (ge_session_add_graph_file(t->s, t->id, model, &err) || ge_session_compile_graph(t->s, t->id, &err)) goto fail;
  return 1;
fail:
  fprintf(stderr, "ge %s: %s\n", cmd, err.message);
  return 0;
}

static void json_shape(FILE *f, const ge_shape *s) {
  int32_t i;
  if (s->rank < 0) {
    fputs("null", f);
    return;
  }
  fputc('[', f);
  for (i = 0; i < s->rank; i++) {
    const char *sym = s->info ? s->info[i].symbol : NULL;
    if (i) fputc(',', f);
    if (s->dims[i] < 0 && sym) ge_json_write_string(f, sym);
    else fprintf(f, "%lld", (long long)s->dims[i]);
  }
  fputc(']', f);
}

/* The engine's name, or NULL when unplaced. */
static const char *engine_name(const tool *t, const ge_node *x) {
  const ge_engine *e = ge_engine_at(ge_session_engines(t->s), x->engine);
  return e ? e->name : NULL;
}

static void json_placement(FILE *f, const tool *t, const ge_graph *g, const ge_node *x) {
  ge_place_explanation ex;
  ge_error err;
  uint32_t k;
  fputs(", \"engine\": ", f);
  if (engine_name(t, x)) ge_json_write_string(f, engine_name(t, x));
  else fputs("null", f);
  fputs(", \"placed_by\": ", f);
  ge_json_write_string(f, ge_placed_by_str(ge_node_placed_by(x)));
  fputs(", \"rejected\": [", f);
  if (ge_session_explain(t->s, t->id, g, x, &ex, &err) == GE_OK)
    for (k = 0; k < ex.num_rejected; k++) {
      fputs(k ? ", {\"engine\": " : "{\"engine\": ", f);
      ge_json_write_string(f, ge_engine_at(ge_session_engines(t->s), ex.rejected[k].engine)->name);
      fputs(", \"reason\": ", f);
      ge_json_write_string(f, ex.rejected[k].reason);
      fputc('}', f);
    }
  fputc(']', f);
}

/* A subgraph's name: its holder's ("f" of a PartitionedCall), else
 * holder/attribute (with [k] in a list of graphs). */
static void subgraph_name(const ge_node *holder, const ge_attr *at, int32_t k, char *buf, size_t cap) {
  if (!strcmp(at->name, "f")) snprintf(buf, cap, "%s", holder->name);
  else if (at->type == GE_ATTR_GRAPHS) snprintf(buf, cap, "%s/%s[%d]", holder->name, at->name, (int)k);
  else snprintf(buf, cap, "%s/%s", holder->name, at->name);
}

/* Text: one line per node with its engine, why, and the engines passed
 * over; the nodes of each subgraph follow, indented under its name. */
static void print_placement(FILE *f, const tool *t, ge_graph *g, const char *sub, int depth) {
  uint32_t i, k, a, n = ge_graph_node_count(g);
  ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
  if (!order || ge_graph_topo_sort(g, ge_session_topo_mode(t->s, t->id), order, NULL) != GE_OK) {
    free(order);
    return;
  }
  if (sub) fprintf(f, "%*ssubgraph %s:\n", 2 * depth, "", sub);
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, order[i]);
    ge_place_explanation ex;
    ge_error err;
    fprintf(f, "%*s  %-28s %-18s -> %-20s (%s)\n", 2 * depth, "", x->name, x->op,
            engine_name(t, x) ? engine_name(t, x) : "-", ge_placed_by_str(ge_node_placed_by(x)));
    if (ge_session_explain(t->s, t->id, g, x, &ex, &err) != GE_OK) continue;
    for (k = 0; k < ex.num_rejected; k++)
      fprintf(f, "%*s      not %s: %s\n", 2 * depth, "", ge_engine_at(ge_session_engines(t->s), ex.rejected[k].engine)->name,
              ex.rejected[k].reason);
  }
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, order[i]);
    for (a = 0; a < x->num_attrs; a++) {
      const ge_attr *at = &x->attrs[a];
      int32_t j, count = at->type == GE_ATTR_GRAPH ? 1 : at->type == GE_ATTR_GRAPHS ? at->count : 0;
      for (j = 0; j < count; j++) {
        char name[512];
        subgraph_name(x, at, j, name, sizeof name);
        print_placement(f, t, at->type == GE_ATTR_GRAPH ? at->v.g : at->v.graphs[j], name, depth + 1);
      }
    }
  }
  free(order);
}

/* One node of graph g (a subgraph named `sub`, or the root when NULL). */
static void json_node(FILE *f, const tool *t, const ge_graph *g, const ge_node *x, const char *sub) {
  uint32_t k;
  fputs("\"name\": ", f);
  ge_json_write_string(f, x->name);
  fputs(", \"op\": ", f);
  ge_json_write_string(f, x->op);
  fputs(", \"subgraph\": ", f);
  if (sub) ge_json_write_string(f, sub);
  else fputs("null", f);
  json_placement(f, t, g, x);
  fprintf(f, ", \"stream\": %d, \"inputs\": [", (int)x->stream);
  for (k = 0; k < x->num_inputs; k++) {
    const ge_node *p = ge_graph_node(g, x->inputs[k].node);
    if (k) fputc(',', f);
    if (p) ge_json_write_string(f, p->name);
    else fputs("null", f);
  }
  fputs("], \"control_inputs\": [", f);
  for (k = 0; k < x->num_control_inputs; k++) {
    if (k) fputc(',', f);
    ge_json_write_string(f, ge_graph_node(g, x->control_inputs[k])->name);
  }
  fputs("], \"outputs\": [", f);
  for (k = 0; k < x->num_outputs; k++) {
    fprintf(f, "%s{\"dtype\": \"%s\", \"shape\": ", k ? "," : "", ge_dtype_name(x->outputs[k].dtype));
    json_shape(f, &x->outputs[k].shape);
    fputc('}', f);
  }
  fputs("]}", f);
}


/* The nodes of g in execution order (sub: g's subgraph name or NULL); then
 * those of every subgraph its nodes hold. *first tracks the commas. */
static void json_nodes(FILE *f, const tool *t, ge_graph *g, const char *sub, int *first) {
  uint32_t i, a, n = ge_graph_node_count(g);
  ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
  if (!order || ge_graph_topo_sort(g, ge_session_topo_mode(t->s, t->id), order, NULL) != GE_OK) {
    free(order);
    return;
  }
  for (i = 0; i < n; i++) {
    fputs(*first ? "\n    {" : ",\n    {", f);
    *first = 0;
    json_node(f, t, g, ge_graph_node(g, order[i]), sub);
  }
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, order[i]);
    for (a = 0; a < x->num_attrs; a++) {
      const ge_attr *at = &x->attrs[a];
      int32_t k, count = at->type == GE_ATTR_GRAPH ? 1 : at->type == GE_ATTR_GRAPHS ? at->count : 0;
      for (k = 0; k < count; k++) {
        char name[512];
        subgraph_name(x, at, k, name, sizeof name);
        json_nodes(f, t, at->type == GE_ATTR_GRAPH ? at->v.g : at->v.graphs[k], name, first);
      }
    }
  }
  free(order);
}

/* What a subgraph is: the partition kind of the call that holds it. */
static const char *subgraph_kind(const ge_node *holder, const char *attr) {
  if (!strcmp(holder->op, "PartitionedCall")) {
    if (ge_node_attr(holder, "_stage_level")) return "stage";
    if (ge_node_attr(holder, "_is_unknown_shape")) return ge_node_attr_int(holder, "_is_unknown_shape", 0) ? "dynamic" : "static";
    return "call";
  }
  if (!strcmp(holder->op, "Case") && ge_node_attr(holder, GE_MULTIBATCH_ATTR)) return "shape_tier";
  return attr; /* then_branch, else_branch, body, branches, ... */
}

/* Every subgraph under g: name, kind, the holding node and graph, the
 * engine or stage, and its member nodes. */
static void json_subgraphs(FILE *f, const tool *t, const ge_graph *g, int *first) {
  ge_node *x;
  GE_GRAPH_FOREACH(g, x) {
    uint32_t a;
    for (a = 0; a < x->num_attrs; a++) {
      const ge_attr *at = &x->attrs[a];
      int32_t k, count = at->type == GE_ATTR_GRAPH ? 1 : at->type == GE_ATTR_GRAPHS ? at->count : 0;
      for (k = 0; k < count; k++) {
        const ge_graph *sub = at->type == GE_ATTR_GRAPH ? at->v.g : at->v.graphs[k];
        const ge_node *m;
        int first_member = 1;
        char name[512];
        subgraph_name(x, at, k, name, sizeof name);
        fputs(*first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
        *first = 0;
        ge_json_write_string(f, name);
        fputs(", \"kind\": ", f);
        ge_json_write_string(f, subgraph_kind(x, at->name));
        fputs(", \"parent\": ", f);
        ge_json_write_string(f, x->name);
        fputs(", \"engine\": ", f);
        if (engine_name(t, x)) ge_json_write_string(f, engine_name(t, x));
        else fputs("null", f);
        fprintf(f, ", \"stage\": %lld, \"nodes\": [", (long long)ge_node_attr_int(x, "_stage_level", -1));
        GE_GRAPH_FOREACH(sub, m) {
          if (!first_member) fputc(',', f);
          first_member = 0;
          ge_json_write_string(f, m->name);
        }
        fputs("]}", f);
        json_subgraphs(f, t, sub, first);
      }
    }
  }
}

/* "streams" and "events" of the root level, and the stream summary. */
static void json_streams(FILE *f, const ge_graph *g, const ge_stream_plan *p) {
  uint32_t i, k, hccl = 0;
  fputs(",\n  \"streams\": [", f);
  for (i = 0; i < p->num_streams; i++) {
    const ge_stream_info *s = &p->streams[i];
    hccl += s->hccl;
    fprintf(f, "%s\n    {\"id\": %u, \"logical\": %d, \"label\": ", i ? "," : "", (unsigned)i, (int)s->logical);
    if (s->label) ge_json_write_string(f, s->label);
    else fputs("null", f);
    fprintf(f, ", \"tasks\": %u, \"attached\": %s, \"hccl\": %s, \"huge\": %s, \"activated_by\": ",
            (unsigned)s->num_tasks, s->attached ? "true" : "false", s->hccl ? "true" : "false", s->huge ? "true" : "false");
    if (s->activated_by != GE_NONE) ge_json_write_string(f, ge_graph_node(g, s->activated_by)->name);
    else fputs("null", f);
    fputs(", \"nodes\": [", f);
    for (k = 0; k < s->num_nodes; k++) {
      if (k) fputc(',', f);
      ge_json_write_string(f, ge_graph_node(g, s->nodes[k])->name);
    }
    fputs("]}", f);
  }
  fputs("\n  ],\n  \"events\": [", f);
  for (i = 0; i < p->num_events; i++) {
    const ge_stream_event *e = &p->events[i];
    fprintf(f, "%s\n    {\"id\": %u, \"send_node\": ", i ? "," : "", (unsigned)e->id);
    ge_json_write_string(f, ge_graph_node(g, e->send_node)->name);
    fputs(", \"recv_node\": ", f);
    ge_json_write_string(f, ge_graph_node(g, e->recv_node)->name);
    fprintf(f, ", \"send_stream\": %d, \"recv_stream\": %d}", (int)e->send_stream, (int)e->recv_stream);
  }
  fprintf(f, "\n  ],\n  \"stream_summary\": {\"logical_streams\": %u, \"physical_streams\": %u, \"attached_streams\": %u, "
             "\"hccl_followed_streams\": %u, \"dynamic\": %s, \"single_stream\": %s, \"events\": %u, \"event_ids\": %u, "
             "\"events_ge_passes\": %u, \"events_all\": %u, \"sync\": \"%s\"}",
          (unsigned)p->num_logical, (unsigned)p->num_streams, (unsigned)p->num_attached, (unsigned)hccl,
          p->dynamic ? "true" : "false", p->single_stream ? "true" : "false", (unsigned)p->num_events,
          (unsigned)p->num_event_ids, (unsigned)p->events_ge_passes, (unsigned)p->events_all, p->notify ? "notify" : "event");
}

/* "memory": every planned tensor, the segments and the lower bound. */
static void json_memory(FILE *f, const tool *t, const ge_graph *g) {
  const char *why;
  const ge_mem_graph_plan *m = ge_session_memory_plan(t->s, t->id, &why);
  uint32_t i;
  int k;
  if (!m) {
    fputs(",\n  \"memory\": {\"planned\": false, \"reason\": ", f);
    ge_json_write_string(f, why);
    fputs("}", f);
    return;
  }
  fputs(",\n  \"memory\": {\"planned\": true, \"tensors\": [", f);
  for (i = 0; i < m->num_tensors; i++) {
    const ge_mem_tensor *t = &m->tensors[i];
    const ge_node *x = ge_graph_node(g, t->node);
    char name[512];
    if (t->output < 0) snprintf(name, sizeof name, "%s:workspace", x->name);
    else if (x->outputs[t->output].name && *x->outputs[t->output].name) snprintf(name, sizeof name, "%s", x->outputs[t->output].name);
    else snprintf(name, sizeof name, "%s:%d", x->name, (int)t->output);
    fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
    ge_json_write_string(f, name);
    fputs(", \"node\": ", f);
    ge_json_write_string(f, x->name);
    fprintf(f, ", \"output\": %d, \"segment\": \"%s\", \"size\": %llu, \"offset\": %llu, \"first_use\": %d, "
               "\"last_use\": %d, \"stream\": %d, \"alias_of\": %d}",
            (int)t->output, ge_mem_segment_name(t->segment), (unsigned long long)t->size, (unsigned long long)t->offset,
            (int)t->first_use, (int)t->last_use, (int)t->stream, (int)t->alias_of);
  }
  fputs("\n  ], \"segments\": {", f);
  for (k = 0; k < GE_MEM_SEG_COUNT; k++)
    fprintf(f, "%s\"%s\": %llu", k ? ", " : "", ge_mem_segment_name((ge_mem_segment)k), (unsigned long long)m->segment_size[k]);
  fprintf(f, "}, \"block_size\": %llu, \"feature_map\": %llu, \"lower_bound\": %llu, \"no_reuse\": %llu, "
             "\"strategy\": \"%s\"}",
          (unsigned long long)m->block_size, (unsigned long long)m->feature_map.total,
          (unsigned long long)m->feature_map.lower_bound, (unsigned long long)m->feature_map.no_reuse_total,
          ge_mem_strategy_name(m->feature_map.strategy));
}

static void json_graph(FILE *f, const tool *t, ge_graph *g) {
  int first = 1;
  fputs("{\n  \"graph\": ", f);
  ge_json_write_string(f, ge_graph_name(g));
  fprintf(f, ",\n  \"dynamic_shape_partitioned\": %lld", (long long)(ge_graph_attr(g, "_dynamic_shape_partitioned")
                                                                        ? ge_graph_attr(g, "_dynamic_shape_partitioned")->v.i
                                                                        : 0));
  fputs(",\n  \"nodes\": [", f);
  json_nodes(f, t, g, NULL, &first);
  fputs("\n  ],\n  \"subgraphs\": [", f);
  first = 1;
  json_subgraphs(f, t, g, &first);
  fputs("\n  ]", f);
  json_streams(f, g, ge_session_stream_plan(t->s, t->id));
  json_memory(f, t, g);
  fputs("\n}\n", f);
}

/* The text summary of streams, events and memory. */
static void print_plans(FILE *f, const tool *t, const ge_graph *g) {
  uint32_t i;
  const ge_stream_plan *p = ge_session_stream_plan(t->s, t->id);
  const char *why;
  const ge_mem_graph_plan *m = ge_session_memory_plan(t->s, t->id, &why);
  fprintf(f, "streams: %u physical (%u logical, %u attached), %s; %u events (%u ids; GE's passes would keep %u, one per "
             "dependency %u)\n",
          (unsigned)p->num_streams, (unsigned)p->num_logical, (unsigned)p->num_attached,
          p->single_stream ? "single-stream mode" : p->dynamic ? "dynamic-shape strategy" : "static pass chain",
          (unsigned)p->num_events, (unsigned)p->num_event_ids, (unsigned)p->events_ge_passes, (unsigned)p->events_all);
  for (i = 0; i < p->num_streams; i++)
    fprintf(f, "  stream %u: %u nodes, %u tasks%s%s\n", (unsigned)i, (unsigned)p->streams[i].num_nodes,
            (unsigned)p->streams[i].num_tasks, p->streams[i].hccl ? ", HCCL" : "", p->streams[i].attached ? ", attached" : "");
  for (i = 0; i < p->num_events; i++)
    fprintf(f, "  event %u: %s (stream %d) -> %s (stream %d)\n", (unsigned)p->events[i].id,
            ge_graph_node(g, p->events[i].send_node)->name, (int)p->events[i].send_stream,
            ge_graph_node(g, p->events[i].recv_node)->name, (int)p->events[i].recv_stream);
  if (!m) {
    fprintf(f, "memory: not planned (%s)\n", why);
    return;
  }
  fprintf(f, "memory: block %llu bytes; feature map %llu (lower bound %llu, no reuse %llu, strategy %s); weights %llu; "
             "inputs %llu; outputs %llu\n",
          (unsigned long long)m->block_size, (unsigned long long)m->feature_map.total,
          (unsigned long long)m->feature_map.lower_bound, (unsigned long long)m->feature_map.no_reuse_total,
          ge_mem_strategy_name(m->feature_map.strategy), (unsigned long long)m->segment_size[GE_MEM_SEG_WEIGHT],
          (unsigned long long)m->segment_size[GE_MEM_SEG_INPUT],
          (unsigned long long)m->segment_size[GE_MEM_SEG_OUTPUT]);
}

static int inspect(int argc, char **argv, int verbose) {
  const char *path = NULL, *dot = NULL;
  int json = 0, i, rc = 1, used;
  tool t;
  ge_graph *g;
  ge_error err;
  if (!tool_init(&t, argc, verbose)) return 1;
  for (i = 0; i < argc; i++) {
    if ((used = common_flag(argc, argv, i, &t))) i += used - 1;
    else if (!strcmp(argv[i], "--json")) json = 1;
    else if (!strcmp(argv[i], "--dot") && i + 1 < argc) dot = argv[++i];
    else if (argv[i][0] == '-' || path) {
      fprintf(stderr, "ge inspect: unexpected argument '%s'\n", argv[i]);
      tool_free(&t);
      return usage(stderr);
    } else path = argv[i];
  }
  if (!path) {
    fprintf(stderr, "ge inspect: no MODEL given\n");
    tool_free(&t);
    return 2;
  }
  if (!tool_compile("inspect", &t, path, 1)) goto done;
  /* inspect is the session's last use: --dot may add the events' nodes */
  g = (ge_graph *)ge_session_graph(t.s, t.id);
  if (json) {
    json_graph(stdout, &t, g);
  } else {
    ge_graph_dump(g, stdout);
    fprintf(stdout, "placement:\n");
    print_placement(stdout, &t, g, NULL, 0);
    print_plans(stdout, &t, g);
  }
  rc = 0;
  if (dot) { /* the events as Send/Recv nodes on their streams */
    FILE *f = ge_stream_generate_nodes(g, ge_session_stream_plan(t.s, t.id), &err) == GE_OK ? fopen(dot, "w") : NULL;
    if (!f || ge_graph_write_dot(g, f) != GE_OK) {
      fprintf(stderr, "ge inspect: cannot write '%s'\n", dot);
      rc = 1;
    }
    if (f) fclose(f);
  }
done:
  tool_free(&t);
  return rc;
}

static double clock_ms(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}
static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }
/* CPU time of the whole process (every thread): on a loaded machine a run's
 * CPU time at 1 thread leaves out the time others held the core. */
static double cpu_ms(void) { return clock_ms(CLOCK_PROCESS_CPUTIME_ID); }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* An output name as a file name: characters outside [A-Za-z0-9._-] become _. */
static void file_name(const char *name, char *buf, size_t cap) {
  size_t i;
  for (i = 0; name[i] && i + 1 < cap; i++) {
    char ch = name[i];
    int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
             ch == '_' || ch == '-';
    buf[i] = ok ? ch : '_';
  }
  buf[i] = 0;
}

/* The first values of a numeric output, for a look at the result. */
static void print_values(const ge_value *v) {
  ge_tensor t;
  int64_t i, n = v->numel < 6 ? v->numel : 6;
  if (v->dtype == GE_DTYPE_STRING || v->dtype == GE_DTYPE_COMPLEX64 || v->dtype == GE_DTYPE_COMPLEX128) {
    printf("\n");
    return;
  }
  memset(&t, 0, sizeof t);
  t.dtype = v->dtype;
  t.data = v->data;
  printf(" = [");
  for (i = 0; i < n; i++) printf("%s%.6g", i ? ", " : "", ge_tensor_get_float(&t, i));
  printf("%s]\n", v->numel > n ? ", ..." : "");
}

typedef struct run_args {
  const char *model, *outdir;
  const char **inputs; /* NAME=FILE.npy, argc slots */
  int num_inputs, repeat, warmup, threads, concurrency;
} run_args;

static int parse_run_args(int argc, char **argv, run_args *a, tool *t) {
  int i, used;
  a->repeat = 1;
  a->threads = 1;
  a->concurrency = 0; /* not given: no request run (1: one in flight, for a C = 1 throughput) */
  if (!(a->inputs = (const char **)calloc((size_t)argc + 1, sizeof(char *)))) return 0;
  for (i = 0; i < argc; i++) {
    const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    if ((used = common_flag(argc, argv, i, t))) i += used - 1;
    else if (!strcmp(arg, "--input") && val) {
      const char *eq = strchr(val, '=');
      if (!eq || eq == val || !eq[1]) {
        fprintf(stderr, "ge run: --input takes NAME=FILE.npy, got '%s'\n", val);
        return 0;
      }
      a->inputs[a->num_inputs++] = val;
      i++;
    } else if (!strcmp(arg, "--outdir") && val) a->outdir = argv[++i];
    else if (!strcmp(arg, "--executor") && val) {
      ge_error err;
      if (ge_executor_parse(argv[++i], &t->executor, &err)) {
        fprintf(stderr, "ge run: %s\n", err.message);
        return 0;
      }
    } else if (!strcmp(arg, "--mode") && val) {
      if (strcmp(val, "sink") && strcmp(val, "host")) {
        fprintf(stderr, "ge run: --mode takes sink or host, got '%s'\n", val);
        return 0;
      }
      t->launch = !strcmp(argv[++i], "host") ? GE_LAUNCH_HOST : GE_LAUNCH_SINK;
    } else if (!strcmp(arg, "--check-order")) t->check_order = 1;
    else if (!strcmp(arg, "--profile") && val) t->profile = argv[++i];
    else if (!strcmp(arg, "--timeout-ms") && val) {
      char *end;
      long v = strtol(val, &end, 10);
      if (*end || !*val || v < 1 || v > 86400000) {
        fprintf(stderr, "ge run: bad value '%s' for --timeout-ms (1 to 86400000)\n", val);
        return 0;
      }
      t->timeout_ms = (uint32_t)v;
      i++;
    }
    else if ((!strcmp(arg, "--repeat") || !strcmp(arg, "--warmup") || !strcmp(arg, "--threads") ||
              !strcmp(arg, "--concurrency")) && val) {
      char *end;
      long v = strtol(val, &end, 10);
      if (*end || !*val || v < (strcmp(arg, "--warmup") ? 1 : 0) || v > 1000000) {
        fprintf(stderr, "ge run: bad value '%s' for %s\n", val, arg);
        return 0;
      }
      if (!strcmp(arg, "--concurrency") && v > 1024) {
        fprintf(stderr, "ge run: --concurrency %ld: at most 1024 requests in flight\n", v);
        return 0;
      }
      *(!strcmp(arg, "--repeat") ? &a->repeat : !strcmp(arg, "--warmup") ? &a->warmup
                                 : !strcmp(arg, "--threads") ? &a->threads : &a->concurrency) = (int)v;
      i++;
    } else if (arg[0] == '-' || a->model) {
      fprintf(stderr, "ge run: unexpected argument '%s'\n", arg);
      return 0;
    } else a->model = arg;
  }
  if (!a->model) fprintf(stderr, "ge run: no MODEL given\n");
  return a->model != NULL;
}

/* Reads the --input files into values ordered like the program's inputs. */
static int bind_inputs(const run_args *a, const ge_program *p, ge_value *vals, const ge_value **ptrs) {
  uint32_t i, n = ge_program_num_inputs(p);
  int k, ok = 1;
  ge_error err;
  for (k = 0; k < a->num_inputs; k++) {
    const char *file = strchr(a->inputs[k], '=') + 1;
    char name[512];
    int32_t idx;
    snprintf(name, sizeof name, "%.*s", (int)(file - 1 - a->inputs[k]), a->inputs[k]);
    if ((idx = ge_program_find_input(p, name)) < 0) {
      fprintf(stderr, "ge run: the model has no input '%s'\n", name);
      ok = 0;
    } else if (ptrs[idx]) {
      fprintf(stderr, "ge run: input '%s' given twice\n", name);
      ok = 0;
    } else if (npy_read(file, &vals[idx], &err)) {
      fprintf(stderr, "ge run: %s\n", err.message);
      ok = 0;
    } else ptrs[idx] = &vals[idx];
  }
  for (i = 0; i < n; i++)
    if (!ptrs[i]) {
      fprintf(stderr, "ge run: missing input '%s' (give --input %s=FILE.npy)\n", ge_program_input_name(p, i),
              ge_program_input_name(p, i));
      ok = 0;
    }
  return ok;
}

static int write_outputs(const char *dir, const ge_program *p) {
  uint32_t i;
  ge_error err;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "ge run: cannot create '%s'\n", dir);
    return 0;
  }
  for (i = 0; i < ge_program_num_outputs(p); i++) {
    char base[200], path[512];
    file_name(ge_program_output_name(p, i), base, sizeof base);
    snprintf(path, sizeof path, "%s/%s.npy", dir, base);
    if (npy_write(path, ge_program_output(p, i), &err)) {
      fprintf(stderr, "ge run: %s\n", err.message);
      return 0;
    }
  }
  return 1;
}

/* The outputs' dtypes, shapes and first values. */
static void print_outputs(const ge_program *p) {
  uint32_t i;
  for (i = 0; i < ge_program_num_outputs(p); i++) {
    const ge_value *v = ge_program_output(p, i);
    char shape[160];
    ge_shape s;
    s.rank = v->rank;
    s.dims = (int64_t *)v->dims;
    s.info = NULL;
    printf("  output %s: %s%s", ge_program_output_name(p, i), ge_dtype_name(v->dtype), ge_shape_str(&s, shape, sizeof shape));
    print_values(v);
  }
}

/* Whether stream k's outputs equal the reference run's, byte for byte. */
static int same_outputs(const tool *t, uint32_t k, const ge_program *ref) {
  uint32_t i;
  for (i = 0; i < ge_program_num_outputs(ref); i++) {
    const ge_value *a = ge_session_stream_output(t->s, t->id, k, i), *b = ge_program_output(ref, i);
    if (!a || a->dtype != b->dtype || a->nbytes != b->nbytes || (b->dtype != GE_DTYPE_STRING && b->nbytes &&
                                                                  memcmp(a->data, b->data, b->nbytes)))
      return 0;
  }
  return 1;
}

/* --concurrency C: `repeat` requests on C caller streams, C in flight at
 * once; every request's outputs must equal the plain run's. Prints the
 * throughput. */
static int run_concurrent(const run_args *a, tool *t, const ge_value **ptrs, uint32_t n) {
  ge_program_request *req = (ge_program_request *)calloc((size_t)a->concurrency, sizeof *req);
  const ge_program *ref = ge_session_program(t->s, t->id);
  ge_error err;
  double t0;
  int r, k, ok = req != NULL, started = 0, bad = -1;
  for (r = 0; ok && r < a->concurrency; r++) /* load every stream's program first */
    ok = !ge_session_run_graph_with_stream(t->s, t->id, (uint32_t)r, ptrs, n, NULL, NULL, &req[r], &err) &&
         !ge_program_wait(&req[r], &err);
  t0 = now_ms();
  for (r = 0; ok && r < a->repeat + a->concurrency; r++) {
    k = r % a->concurrency;
    if (r >= a->concurrency) { /* the request this stream ran before */
      ok = !ge_program_wait(&req[k], &err);
      if (ok && !same_outputs(t, (uint32_t)k, ref)) ok = 0, bad = r - a->concurrency;
    }
    if (ok && r < a->repeat) {
      ok = !ge_session_run_graph_with_stream(t->s, t->id, (uint32_t)k, ptrs, n, NULL, NULL, &req[k], &err);
      started = r + 1;
    }
  }
  if (ok)
    printf("concurrency %d: %d requests, %.1f requests/s, every output equal to the plain run's\n", a->concurrency,
           a->repeat, a->repeat / ((now_ms() - t0) * 1e-3));
  else if (bad >= 0) fprintf(stderr, "ge run: request %d (stream %d): outputs differ from the plain run's\n", bad, bad % a->concurrency);
  else if (req) fprintf(stderr, "ge run: %s\n", err.message);
  for (r = started > a->concurrency ? started - a->concurrency : 0; !ok && req && r < started; r++)
    ge_program_wait(&req[r % a->concurrency], &err); /* none left in flight */
  free(req);
  return ok;
}

/* --profile: the last run's Chrome trace to the file, the per-op table of
 * the timed runs to stderr. */
static int write_profile(const tool *t, ge_program *p) {
  const ge_engine_registry *reg = ge_session_engines(t->s);
  uint32_t k, n = ge_engine_count(reg);
  const char **names = (const char **)calloc((size_t)n + 1, sizeof *names);
  FILE *f = fopen(t->profile, "w");
  ge_error err;
  int ok = names && f;
  for (k = 0; names && k < n; k++) names[k] = ge_engine_at(reg, (int32_t)k)->name;
  if (!ok) fprintf(stderr, "ge run: cannot write %s\n", t->profile);
  if (ok && ge_program_write_trace(p, f, names, n, &err)) {
    fprintf(stderr, "ge run: %s\n", err.message);
    ok = 0;
  }
  if (f && fclose(f) && ok) {
    fprintf(stderr, "ge run: cannot write %s\n", t->profile);
    ok = 0;
  }
  if (ok && ge_program_write_profile(p, stderr, &err)) {
    fprintf(stderr, "ge run: %s\n", err.message);
    ok = 0;
  }
  free(names);
  return ok;
}

static int run(int argc, char **argv, int verbose) {
  run_args a;
  tool t;
  ge_program *p;
  ge_error err;
  ge_value *vals = NULL;
  const ge_value **ptrs = NULL;
  double *times = NULL, *cpu = NULL;
  int rc = 1, r, total;
  uint64_t allocs = 0;
  uint32_t i, n = 0;
  memset(&a, 0, sizeof a);
  if (!tool_init(&t, argc, verbose)) return 1;
  if (!parse_run_args(argc, argv, &a, &t)) {
    rc = 2;
    goto done;
  }
  if (!tool_compile("run", &t, a.model, a.threads)) goto done;
  if (ge_session_load_graph(t.s, t.id, &err)) {
    fprintf(stderr, "ge run: %s\n", err.message);
    goto done;
  }
  p = ge_session_program(t.s, t.id);
  n = ge_program_num_inputs(p);
  vals = (ge_value *)calloc((size_t)n + 1, sizeof *vals);
  ptrs = (const ge_value **)calloc((size_t)n + 1, sizeof *ptrs);
  total = a.warmup + a.repeat;
  times = (double *)malloc(sizeof(double) * (size_t)total);
  cpu = (double *)malloc(sizeof(double) * (size_t)total);
  if (!vals || !ptrs || !times || !cpu) {
    fprintf(stderr, "ge run: out of memory\n");
    goto done;
  }
  if (!bind_inputs(&a, p, vals, ptrs)) goto done;
  for (r = 0; r < total; r++) {
    double t0 = now_ms(), c0 = cpu_ms();
    if (r == a.warmup) allocs = ge_session_allocations(t.s, t.id);
    if (r == a.warmup && t.profile) ge_program_profile_reset(p);
    if (ge_session_run_graph(t.s, t.id, ptrs, n, &err)) {
      fprintf(stderr, "ge run: %s\n", err.message);
      goto done;
    }
    times[r] = now_ms() - t0;
    cpu[r] = cpu_ms() - c0;
  }
  qsort(times + a.warmup, (size_t)a.repeat, sizeof(double), cmp_double);
  qsort(cpu + a.warmup, (size_t)a.repeat, sizeof(double), cmp_double);
  printf("%s: %u outputs, median_ms=%.6f cpu_ms=%.6f over %d runs (after %d warm-up), executor=%s%s, "
         "allocations_per_run=%g\n",
         a.model, (unsigned)ge_program_num_outputs(p), times[a.warmup + a.repeat / 2], cpu[a.warmup + a.repeat / 2],
         a.repeat, a.warmup,
         ge_executor_name(ge_program_executor(p)),
         ge_program_executor(p) == GE_EXECUTOR_STREAMS ? (t.launch == GE_LAUNCH_HOST ? " (host)" : " (sink)") : "",
         (double)(ge_session_allocations(t.s, t.id) - allocs) / a.repeat);
  print_outputs(p);
  if (t.profile && !write_profile(&t, p)) goto done;
  if (a.outdir && !write_outputs(a.outdir, p)) goto done;
  if (a.concurrency >= 1 && !run_concurrent(&a, &t, ptrs, n)) goto done;
  rc = 0;
done:
  for (i = 0; vals && i < n; i++) free(vals[i].data);
  free(vals);
  free(ptrs);
  free(cpu);
  free(times);
  free(a.inputs);
  tool_free(&t);
  return rc;
}

int main(int argc, char **argv) {
  int verbose = 0;
  while (argc > 1 && (!strcmp(argv[1], "-v") || !strcmp(argv[1], "-vv"))) {
    verbose = (int)strlen(argv[1]) - 1;
    argc--, argv++;
  }
  if (argc < 2) return usage(stderr);
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) return usage(stdout);
  if (!strcmp(argv[1], "inspect")) return inspect(argc - 2, argv + 2, verbose);
  if (!strcmp(argv[1], "run")) return run(argc - 2, argv + 2, verbose);
  if (!strcmp(argv[1], "compile")) {
    fprintf(stderr, "ge %s: not available yet (it arrives with compiled model files)\n", argv[1]);
    return 2;
  }
  fprintf(stderr, "ge: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
