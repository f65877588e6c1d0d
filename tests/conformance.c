/* conformance — runs the ONNX backend test data through ge.
 *
 *   build/conformance [--floor FILE] [--write-floor FILE] [--verbose]
 *                     [--engines [--partition] [--plan] [--option KEY=VALUE]...]
 *                     [--executor NAME [--threads N] [--mode sink|host] [--check-order]] DIR...
 *
 * Each DIR holds cases (node/test_abs, ...): model.onnx and
 * test_data_set_N/{input,output}_K.pb. A case is imported, lowered onto the
 * host CPU engine (with --engines: constant-folded, placed on the standard
 * engine set under the given placement options — checking that no excluded
 * engine is chosen and that 1 and 3 threads place alike — and optimised;
 * with --partition also split into engine pieces, optimised and merged
 * back, and wrapped into dynamic/static subgraphs; with --plan given
 * streams and, when its shapes are static, a memory plan the executor runs
 * from: one block, tensors in place, views, cross-stream safety) and run
 * on every data set; outputs are compared with
 * ONNX's backend-test tolerances (rtol 1e-3, atol 1e-7; exact for integers,
 * bools and strings), looser where an op's spec needs it (ops_tolerance).
 * Each case runs in a child process, so a crash is one failed case.
 *
 * A case is `pass`, `fail` (wrong output, a run error, a crash) or
 * `unsupported` (the model uses an op or feature ge does not have). With
 * --floor, every case listed in FILE must pass: the closing line counts the
 * floor cases that pass and those that regressed ("N passed, N failed").
 */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_engines/ge_engines.h"
#include "ge_partition.h"
#include "ge_exec.h"
#include "ge_mem.h"
#include "ge_stream.h"
#include "ge_onnx.h"

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { PASS, FAIL, UNSUPPORTED };
static const char *const verdicts[] = {"pass", "fail", "unsupported"};

/* Ops whose spec or test data needs a looser tolerance than 1e-3/1e-7. */
static const struct {
  const char *case_prefix;
  double rtol, atol;
} ops_tolerance[] = {
    {NULL, 0, 0},
};

static ge_kernel_fn lookup(const ge_node *n, void *user) {
  (void)user;
  return ge_host_cpu_kernel(n);
}

/* --engines: the standard engine set and the placement options;
 * --partition: then engine pieces (composite, atomic) and dynamic/static
 * subgraphs, with ge.exec.static_model_ops_lower_limit from --option. */
static ge_engine_registry *engines;
static ge_place_desc place_desc;
static int partition, plan_memory;
/* --executor, --threads, --mode host, --check-order: how the programs run */
static ge_executor_kind executor;
static int threads = 1, host_mode, check_order;
static ge_dynamic_partition_desc dynamic_desc;

/* --plan: streams over the engines, then the memory plan the executor runs
 * from (none when a shape is known only at run time or a tensor holds
 * strings: the executor sizes those itself). */
static ge_status plan_checked(ge_graph *g, ge_exec_desc *d, ge_stream_plan *streams, ge_mem_graph_plan *mem,
                              ge_error *err) {
  const ge_engine *list[GE_PLACE_MAX_ENGINES];
  uint32_t k, n = ge_engine_count(engines);
  ge_stream_desc sd;
  ge_mem_graph_desc md;
  ge_status st;
  for (k = 0; k < n; k++) list[k] = ge_engine_at(engines, (int32_t)k);
  memset(&sd, 0, sizeof sd);
  sd.engines = list, sd.num_engines = n;
  if ((st = ge_stream_allocate(g, &sd, streams, err))) return st;
  memset(&md, 0, sizeof md);
  md.happens_before = ge_stream_order, md.order_user = streams;
  st = ge_mem_plan_graph(g, &md, mem, err);
  if (st == GE_ERR_SHAPE || st == GE_ERR_UNSUPPORTED) return GE_OK;
  if (st == GE_OK) d->memory_size = mem->block_size;
  return st;
}

/* Splits the placed *g by engine (optimising the pieces), merges, places
 * what the optimisers added, then wraps its dynamic/static clusters. */
static ge_status partition_checked(ge_graph **g, ge_error *err) {
  const ge_engine *list[GE_PLACE_MAX_ENGINES];
  uint32_t k, n = ge_engine_count(engines);
  ge_graph *merged;
  ge_status st;
  for (k = 0; k < n; k++) list[k] = ge_engine_at(engines, (int32_t)k);
  if ((st = ge_partition_by_engine(*g, list, n, 2, &merged, err)) != GE_OK) return st;
  ge_graph_free(*g);
  *g = merged;
  if ((st = ge_place(*g, &place_desc, err)) != GE_OK) return st;
  dynamic_desc.host_cpu_engine = GE_ENGINE_INDEX_HOST_CPU;
  if ((st = ge_partition_dynamic(*g, &dynamic_desc, err)) != GE_OK) return st;
  {
    /* acyclic (validation would also refuse ops that only have kernels) */
    ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * (ge_graph_node_count(*g) + 1));
    st = order ? ge_graph_topo_sort(*g, GE_TOPO_BFS, order, err) : GE_ERR_NOMEM;
    free(order);
  }
  return st;
}

/* Whether name is an item of a comma-separated list. */
static int in_csv(const char *list, const char *name) {
  size_t n = name ? strlen(name) : 0;
  while (n && list && *list) {
    if (!strncmp(list, name, n) && (list[n] == ',' || !list[n])) return 1;
    list = strchr(list, ',');
    if (list) list++;
  }
  return 0;
}

/* Places g (constant folding, placement, fusion) and checks the placement:
 * every node placed, no excluded engine, the same on 1 and 3 threads. */
static ge_status place_checked(ge_graph *g, ge_error *err) {
  ge_place_desc d3 = place_desc;
  ge_node *n;
  int32_t *first;
  ge_status st = ge_place_compile(g, &place_desc, err);
  uint32_t i, bound = ge_graph_id_bound(g);
  if (st) return st;
  first = (int32_t *)malloc(sizeof(int32_t) * (bound + 1));
  GE_GRAPH_FOREACH(g, n) first[n->id] = n->engine;
  d3.num_threads = 3;
  st = ge_place(g, &d3, err);
  for (i = 0; !st && i < bound; i++) {
    ge_place_explanation ex;
    const ge_engine *e;
    if (!(n = ge_graph_node(g, i))) continue;
    if (n->engine != first[i]) st = GE_ERR_INTERNAL, snprintf(err->message, sizeof err->message, "node %s: 1 and 3 threads place it differently", n->name);
    else if (!(e = ge_engine_at(engines, n->engine))) st = GE_ERR_INTERNAL, snprintf(err->message, sizeof err->message, "node %s is not placed", n->name);
    else if (ge_place_explain(g, n, &place_desc, &ex, err) == GE_OK && ex.by == GE_PLACED_COST && ex.cost_choice != n->engine)
      st = GE_ERR_INTERNAL, snprintf(err->message, sizeof err->message, "node %s: explanation disagrees with placement", n->name);
    else if (in_csv(place_desc.exclude_engines, e->accelerator))
      st = GE_ERR_INTERNAL, snprintf(err->message, sizeof err->message, "node %s is on excluded engine %s", n->name, e->name);
    else if (place_desc.engine_type && !strcmp(place_desc.engine_type, "VectorEngine") && !strcmp(e->name, "AIcoreEngine"))
      st = GE_ERR_INTERNAL, snprintf(err->message, sizeof err->message, "node %s is on AI Core under ge.engineType=VectorEngine", n->name);
  }
  free(first);
  return st;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted subdirectory names of dir (malloc'ed); count in *n. */
static char **list_dirs(const char *dir, const char *prefix, int *n) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL;
  int cap = 0;
  *n = 0;
  if (!d) return NULL;
  while ((e = readdir(d))) {
    char path[1024];
    struct stat st;
    if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    if (*n == cap) {
      cap = cap ? cap * 2 : 64;
      names = (char **)realloc(names, sizeof(char *) * (size_t)cap);
    }
    names[(*n)++] = strdup(e->d_name);
  }
  closedir(d);
  if (*n) qsort(names, (size_t)*n, sizeof(char *), cmp_str);
  return names;
}

static void free_list(char **names, int n) {
  int i;
  for (i = 0; i < n; i++) free(names[i]);
  free(names);
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Compares a ge output with the expected tensor; writes why on mismatch. */
static int same_value(const ge_value *got, const ge_onnx_tensor *want, double rtol, double atol, char *why, size_t n) {
  int64_t i;
  int32_t k;
  if (got->dtype == GE_DTYPE_BFLOAT16 && want->dtype == GE_DTYPE_UINT16) { /* bits stored as uint16 */
    ge_onnx_tensor w = *want;
    w.dtype = GE_DTYPE_BFLOAT16;
    return same_value(got, &w, rtol, atol, why, n);
  }
  if (got->dtype != want->dtype) {
    snprintf(why, n, "dtype %s, expected %s", ge_dtype_name(got->dtype), ge_dtype_name(want->dtype));
    return 0;
  }
  if (got->rank != want->rank) {
    snprintf(why, n, "rank %d, expected %d", (int)got->rank, (int)want->rank);
    return 0;
  }
  for (k = 0; k < got->rank; k++)
    if (got->dims[k] != want->dims[k]) {
      snprintf(why, n, "dim %d is %lld, expected %lld", (int)k, (long long)got->dims[k], (long long)want->dims[k]);
      return 0;
    }
  for (i = 0; i < want->numel; i++) {
    if (want->dtype == GE_DTYPE_STRING) {
      const char *a = ((char **)got->data)[i], *b = ((char **)want->data)[i];
      if (strcmp(a ? a : "", b ? b : "") != 0) {
        snprintf(why, n, "element %lld is \"%s\", expected \"%s\"", (long long)i, a ? a : "", b ? b : "");
        return 0;
      }
    } else if (want->dtype == GE_DTYPE_FLOAT32 || want->dtype == GE_DTYPE_FLOAT64 || want->dtype == GE_DTYPE_FLOAT16 ||
               want->dtype == GE_DTYPE_BFLOAT16) {
      ge_tensor ta, tb;
      double a, b;
      memset(&ta, 0, sizeof ta);
      ta.dtype = got->dtype;
      ta.data = got->data;
      ge_onnx_tensor_view(want, &tb);
      a = ge_tensor_get_float(&ta, i);
      b = ge_tensor_get_float(&tb, i);
      if (isnan(a) && isnan(b)) continue;
      if (isinf(b) ? a != b : !(fabs(a - b) <= atol + rtol * fabs(b))) {
        snprintf(why, n, "element %lld is %.9g, expected %.9g", (long long)i, a, b);
        return 0;
      }
    } else {
      size_t es = ge_dtype_size(want->dtype);
      if (memcmp((const char *)got->data + (size_t)i * es, (const char *)want->data + (size_t)i * es, es) != 0) {
        ge_tensor ta, tb;
        memset(&ta, 0, sizeof ta);
        ta.dtype = got->dtype;
        ta.data = got->data;
        ge_onnx_tensor_view(want, &tb);
        snprintf(why, n, "element %lld is %lld, expected %lld", (long long)i, (long long)ge_tensor_get_int(&ta, i),
                 (long long)ge_tensor_get_int(&tb, i));
        return 0;
      }
    }
  }
  return 1;
}

/* Whether an error means ge lacks something (rather than got it wrong). */
static int is_unsupported(ge_status st) { return st == GE_ERR_UNSUPPORTED; }

/* Runs one case; writes the verdict and a reason. */
static int run_case(const char *dir, const char *name, double rtol, double atol, char *why, size_t n) {
  char path[1200];
  ge_graph *g = NULL;
  ge_program *p = NULL;
  ge_exec_desc d;
  ge_stream_plan streams;
  ge_mem_graph_plan mem;
  ge_error err;
  ge_status st;
  char **sets;
  int n_sets, s, verdict = PASS;
  snprintf(path, sizeof path, "%s/%s/model.onnx", dir, name);
  memset(&d, 0, sizeof d);
  memset(&streams, 0, sizeof streams);
  memset(&mem, 0, sizeof mem);
  d.lookup = lookup;
  d.executor = executor, d.num_threads = threads, d.check_order = check_order;
  d.launch = host_mode ? GE_LAUNCH_HOST : GE_LAUNCH_SINK;
  if (plan_memory) d.streams = &streams; /* the order the memory plan was made under */
  if (engines) {
    d.lookup = ge_engine_kernel_lookup;
    d.lookup_user = engines;
  }
  if ((st = ge_onnx_load(path, NULL, &g, &err)) || (engines && (st = place_checked(g, &err))) ||
      (partition && (st = partition_checked(&g, &err))) ||
      (plan_memory && (st = plan_checked(g, &d, &streams, &mem, &err))) || (st = ge_program_create(g, &d, &p, &err))) {
    snprintf(why, n, "%.590s", err.message);
    ge_stream_plan_free(&streams);
    if (mem.tensors) ge_mem_graph_plan_free(&mem);
    ge_graph_free(g);
    return is_unsupported(st) ? UNSUPPORTED : FAIL;
  }
  snprintf(path, sizeof path, "%s/%s", dir, name);
  sets = list_dirs(path, "test_data_set_", &n_sets);
  for (s = 0; s < n_sets && verdict == PASS; s++) {
    ge_onnx_tensor ins[64], outs[64];
    const ge_value *in_ptrs[64];
    ge_value in_vals[64];
    uint32_t n_in = 0, n_out = 0, i;
    for (;;) { /* input_0.pb, input_1.pb, ... */
      snprintf(path, sizeof path, "%s/%s/%s/input_%u.pb", dir, name, sets[s], (unsigned)n_in);
      if (n_in == 64 || !file_exists(path)) break;
      if (ge_onnx_read_tensor_file(path, NULL, &ins[n_in], &err)) {
        snprintf(why, n, "reading %.200s: %.300s", path, err.message);
        verdict = FAIL;
        break;
      }
      /* ONNX 1.12's data stores bfloat16 tensors as uint16 bits */
      if (ins[n_in].dtype == GE_DTYPE_UINT16 && n_in < ge_program_num_inputs(p) &&
          ge_program_input_desc(p, n_in)->dtype == GE_DTYPE_BFLOAT16)
        ins[n_in].dtype = GE_DTYPE_BFLOAT16;
      memset(&in_vals[n_in], 0, sizeof(ge_value));
      ge_value_set_shape(&in_vals[n_in], ins[n_in].dtype, ins[n_in].rank, ins[n_in].dims);
      in_vals[n_in].data = ins[n_in].data;
      in_ptrs[n_in] = &in_vals[n_in];
      n_in++;
    }
    for (; verdict == PASS;) {
      snprintf(path, sizeof path, "%s/%s/%s/output_%u.pb", dir, name, sets[s], (unsigned)n_out);
      if (n_out == 64 || !file_exists(path)) break;
      if (ge_onnx_read_tensor_file(path, NULL, &outs[n_out], &err)) {
        snprintf(why, n, "reading %.200s: %.300s", path, err.message);
        verdict = FAIL;
        break;
      }
      n_out++;
    }
    if (verdict == PASS && (st = ge_program_run(p, in_ptrs, n_in, &err))) {
      snprintf(why, n, "%.590s", err.message);
      verdict = is_unsupported(st) ? UNSUPPORTED : FAIL;
    }
    if (verdict == PASS && n_out != ge_program_num_outputs(p)) {
      snprintf(why, n, "%u outputs, expected %u", (unsigned)ge_program_num_outputs(p), (unsigned)n_out);
      verdict = FAIL;
    }
    for (i = 0; verdict == PASS && i < n_out; i++) {
      char inner[300];
      if (!same_value(ge_program_output(p, i), &outs[i], rtol, atol, inner, sizeof inner)) {
        snprintf(why, n, "%s, output %u: %s", sets[s], (unsigned)i, inner);
        verdict = FAIL;
      }
    }
    for (i = 0; i < n_in; i++) ge_onnx_tensor_free(&ins[i]);
    for (i = 0; i < n_out; i++) ge_onnx_tensor_free(&outs[i]);
  }
  free_list(sets, n_sets);
  ge_program_free(p);
  ge_stream_plan_free(&streams);
  if (mem.tensors) ge_mem_graph_plan_free(&mem);
  ge_graph_free(g);
  return verdict;
}

/* Runs a case in a child process (a crash or a hang is a failure). */
static int run_isolated(const char *dir, const char *name, char *why, size_t n) {
  int fds[2], status = 0, verdict;
  double rtol = 1e-3, atol = 1e-7;
  size_t k;
  pid_t pid;
  for (k = 0; ops_tolerance[k].case_prefix; k++)
    if (strncmp(name, ops_tolerance[k].case_prefix, strlen(ops_tolerance[k].case_prefix)) == 0) {
      rtol = ops_tolerance[k].rtol;
      atol = ops_tolerance[k].atol;
    }
  if (pipe(fds) != 0) return FAIL;
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    char buf[600];
    close(fds[0]);
    alarm(60);
    buf[1] = 0;
    buf[0] = (char)run_case(dir, name, rtol, atol, buf + 1, sizeof buf - 1);
    if (write(fds[1], buf, 1 + strlen(buf + 1) + 1) < 0) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  {
    char buf[600];
    ssize_t got = 0, r;
    while ((r = read(fds[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0) got += r;
    close(fds[0]);
    waitpid(pid, &status, 0);
    if (got >= 2 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      buf[got] = 0;
      verdict = buf[0];
      snprintf(why, n, "%s", buf + 1);
      return verdict;
    }
  }
  if (WIFSIGNALED(status))
    snprintf(why, n, "crashed with signal %d%s", WTERMSIG(status), WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
  else snprintf(why, n, "child exited without a verdict");
  return FAIL;
}

/* The floor: one case a line ("node/test_abs"). */
static char **read_floor(const char *path, int *n) {
  FILE *f = fopen(path, "r");
  char line[512], **names = NULL;
  int cap = 0;
  *n = 0;
  if (!f) return NULL;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0] || line[0] == '#') continue;
    if (*n == cap) {
      cap = cap ? cap * 2 : 256;
      names = (char **)realloc(names, sizeof(char *) * (size_t)cap);
    }
    names[(*n)++] = strdup(line);
  }
  fclose(f);
  if (*n) qsort(names, (size_t)*n, sizeof(char *), cmp_str);
  return names;
}

static int in_list(char **names, int n, const char *key) {
  return names && bsearch(&key, names, (size_t)n, sizeof(char *), cmp_str) != NULL;
}

int main(int argc, char **argv) {
  const char *floor_path = NULL, *write_path = NULL;
  char **floor = NULL;
  int n_floor = 0, i, verbose = 0, floor_pass = 0, floor_fail = 0;
  FILE *out = NULL;
  for (i = 1; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--floor") && i + 1 < argc) floor_path = argv[++i];
    else if (!strcmp(argv[i], "--write-floor") && i + 1 < argc) write_path = argv[++i];
    else if (!strcmp(argv[i], "--verbose")) verbose = 1;
    else if (!strcmp(argv[i], "--executor") && i + 1 < argc) {
      ge_error err;
      if (ge_executor_parse(argv[++i], &executor, &err)) {
        fprintf(stderr, "conformance: %s\n", err.message);
        return 2;
      }
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--mode") && i + 1 < argc) host_mode = !strcmp(argv[++i], "host");
    else if (!strcmp(argv[i], "--check-order")) check_order = 1;
    else if (!strcmp(argv[i], "--engines")) {
      ge_error err;
      if (ge_engine_registry_create(NULL, &engines, &err) || ge_engines_register_standard(engines, &err)) {
        fprintf(stderr, "conformance: %s\n", err.message);
        return 2;
      }
      place_desc.engines = engines;
    } else if (!strcmp(argv[i], "--partition") && engines) {
      partition = 1;
    } else if (!strcmp(argv[i], "--plan") && engines) {
      plan_memory = 1;
    } else if (!strcmp(argv[i], "--option") && i + 1 < argc && engines) {
      const char *kv = argv[++i], *eq = strchr(kv, '=');
      char key[128];
      ge_error err;
      ge_status st = GE_ERR_INVALID;
      snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - kv) : 0, kv);
      if (eq && (st = ge_dynamic_partition_set_option(&dynamic_desc, key, eq + 1, &err)) == GE_ERR_NOT_FOUND)
        st = ge_place_set_option(&place_desc, key, eq + 1, &err);
      if (st) {
        fprintf(stderr, "conformance: bad option '%s'%s%s\n", kv, eq ? ": " : "", eq ? err.message : "");
        return 2;
      }
    } else {
      fprintf(stderr, "usage: conformance [--floor FILE] [--write-floor FILE] [--verbose] [--engines [--partition] [--plan] [--option KEY=VALUE]...] DIR...\n");
      return 2;
    }
  }
  if (floor_path && !(floor = read_floor(floor_path, &n_floor))) {
    fprintf(stderr, "conformance: cannot read the floor file '%s'\n", floor_path);
    return 2;
  }
  if (write_path && !(out = fopen(write_path, "w"))) {
    fprintf(stderr, "conformance: cannot write '%s'\n", write_path);
    return 2;
  }
  if (out) fprintf(out, "# ONNX backend test cases that pass on ge's host CPU engine; make test fails if one stops passing.\n");
  for (; i < argc; i++) {
    const char *dir = argv[i], *folder = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    int n_cases, c, count[3] = {0, 0, 0};
    char **cases = list_dirs(dir, "", &n_cases);
    if (!cases) {
      fprintf(stderr, "conformance: no cases in '%s'\n", dir);
      continue;
    }
    for (c = 0; c < n_cases; c++) {
      char why[600] = "", key[600];
      int v = run_isolated(dir, cases[c], why, sizeof why);
      int floored;
      snprintf(key, sizeof key, "%s/%s", folder, cases[c]);
      floored = in_list(floor, n_floor, key);
      count[v]++;
      if (out && v == PASS) fprintf(out, "%s\n", key);
      if (floored) {
        if (v == PASS) floor_pass++;
        else floor_fail++;
      }
      if (floored && v != PASS) printf("FAIL %s: regression: %s: %s\n", key, verdicts[v], why);
      else if (verbose || (floor && v == PASS && !floored)) printf("%s %s%s%s\n", floored || !floor ? verdicts[v] : "new pass", key, why[0] ? ": " : "", why);
    }
    printf("%s: %d pass, %d fail, %d unsupported of %d (%.1f%% pass)\n", folder, count[PASS], count[FAIL],
           count[UNSUPPORTED], n_cases, n_cases ? 100.0 * count[PASS] / n_cases : 0.0);
    free_list(cases, n_cases);
  }
  if (out) fclose(out);
  free_list(floor, n_floor);
  ge_engine_registry_free(engines);
  if (floor_path) {
    printf("%d passed, %d failed\n", floor_pass, floor_fail);
    return floor_fail ? 1 : 0;
  }
  return 0;
}
