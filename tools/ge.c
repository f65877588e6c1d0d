/* ge — the command-line tool (DESIGN §9). One translation unit compiling
 * every module's implementation.
 *
 *   ge inspect GRAPH [--json] [--dot FILE] [--option KEY=VALUE]...
 *
 * GRAPH is a graph file written by ge_graph_save. `run` and `compile`
 * arrive with the ONNX importer and the executor.
 */
#define GE_IMPLEMENTATION
#include "ge_graph.h"

#include <stdlib.h>

static int usage(FILE *f) {
  fprintf(f,
          "usage: ge inspect GRAPH [--json] [--dot FILE] [--option KEY=VALUE]...\n"
          "\n"
          "  inspect   print a graph file: a text dump, or with --json one JSON\n"
          "            document (nodes in execution order); --dot writes Graphviz\n"
          "options:\n"
          "  ge.topoSortingMode=0|1|3   execution order: BFS (default), DFS, stable reverse DFS\n");
  return f == stdout ? 0 : 2;
}

/* Prints s as a JSON string. */
static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
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
    if (s->dims[i] < 0 && sym) json_str(f, sym);
    else fprintf(f, "%lld", (long long)s->dims[i]);
  }
  fputc(']', f);
}

static void json_graph(FILE *f, ge_graph *g, const ge_node_id *order) {
  uint32_t i, k, n = ge_graph_node_count(g);
  fputs("{\n  \"graph\": ", f);
  json_str(f, ge_graph_name(g));
  fputs(",\n  \"nodes\": [", f);
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, order[i]);
    fputs(i ? ",\n    {" : "\n    {", f);
    fputs("\"name\": ", f);
    json_str(f, x->name);
    fputs(", \"op\": ", f);
    json_str(f, x->op);
    fprintf(f, ", \"engine\": %d, \"stream\": %d, \"inputs\": [", (int)x->engine, (int)x->stream);
    for (k = 0; k < x->num_inputs; k++) {
      const ge_node *p = ge_graph_node(g, x->inputs[k].node);
      if (k) fputc(',', f);
      if (p) json_str(f, p->name);
      else fputs("null", f);
    }
    fputs("], \"control_inputs\": [", f);
    for (k = 0; k < x->num_control_inputs; k++) {
      if (k) fputc(',', f);
      json_str(f, ge_graph_node(g, x->control_inputs[k])->name);
    }
    fputs("], \"outputs\": [", f);
    for (k = 0; k < x->num_outputs; k++) {
      fprintf(f, "%s{\"dtype\": \"%s\", \"shape\": ", k ? "," : "", ge_dtype_name(x->outputs[k].dtype));
      json_shape(f, &x->outputs[k].shape);
      fputc('}', f);
    }
    fputs("]}", f);
  }
  fputs("\n  ]\n}\n", f);
}

static int inspect(int argc, char **argv) {
  const char *path = NULL, *dot = NULL;
  int json = 0, i, rc = 0;
  ge_topo_mode mode = GE_TOPO_BFS;
  ge_graph *g = NULL;
  ge_node_id *order = NULL;
  ge_error err;
  for (i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = 1;
    else if (!strcmp(argv[i], "--dot") && i + 1 < argc) dot = argv[++i];
    else if (!strcmp(argv[i], "--option") && i + 1 < argc) {
      const char *kv = argv[++i], *eq = strchr(kv, '=');
      if (eq && (size_t)(eq - kv) == strlen("ge.topoSortingMode") && !strncmp(kv, "ge.topoSortingMode", (size_t)(eq - kv))) {
        if (ge_topo_mode_parse(eq + 1, &mode, &err)) {
          fprintf(stderr, "ge inspect: %s\n", err.message);
          return 2;
        }
      } else {
        fprintf(stderr, "ge inspect: unknown option '%s' (known: ge.topoSortingMode)\n", kv);
        return 2;
      }
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "ge inspect: unknown flag '%s'\n", argv[i]);
      return usage(stderr);
    } else if (!path) path = argv[i];
    else return usage(stderr);
  }
  if (!path) return usage(stderr);
  if (ge_graph_load(path, NULL, &g, &err)) {
    fprintf(stderr, "ge inspect: %s\n", err.message);
    return 1;
  }
  order = (ge_node_id *)malloc(sizeof(ge_node_id) * (ge_graph_node_count(g) + 1));
  if (!order || ge_graph_topo_sort(g, mode, order, &err)) {
    fprintf(stderr, "ge inspect: %s\n", order ? err.message : "out of memory");
    rc = 1;
  } else if (json) {
    json_graph(stdout, g, order);
  } else {
    ge_graph_dump(g, stdout);
  }
  if (!rc && dot) {
    FILE *f = fopen(dot, "w");
    if (!f || ge_graph_write_dot(g, f) != GE_OK) {
      fprintf(stderr, "ge inspect: cannot write '%s'\n", dot);
      rc = 1;
    }
    if (f) fclose(f);
  }
  free(order);
  ge_graph_free(g);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage(stderr);
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) return usage(stdout);
  if (!strcmp(argv[1], "inspect")) return inspect(argc - 2, argv + 2);
  if (!strcmp(argv[1], "run") || !strcmp(argv[1], "compile")) {
    fprintf(stderr, "ge %s: not available yet (it arrives with the ONNX importer and the executor)\n", argv[1]);
    return 2;
  }
  fprintf(stderr, "ge: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
