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
#include "ge_session.h"

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

/* How far each case is compiled (through ge_session.h, the one pipeline):
 * the reference kernels alone; --engines: constant folding, placement and
 * fusion; --partition: and stages, dynamic/static and engine pieces;
 * --plan: everything, streams and the memory plan the executor runs from. */
static ge_compile_level level = GE_COMPILE_REFERENCE;
/* --executor, --threads, --mode host, --check-order: how the programs run */
static ge_executor_kind executor;
static int threads = 1, host_mode, check_order;
static const char **options; /* KEY=VALUE, from --option */
static int num_options;

/* The value of an --option KEY, or NULL. */
static const char *option_value(const char *key) {
  int i;
  size_t n = strlen(key);
  for (i = num_options - 1; i >= 0; i--)
    if (!strncmp(options[i], key, n) && options[i][n] == '=') return options[i] + n + 1;
  return NULL;
}

/* A session with the --options holding the case's model as graph 1, compiled. */
static ge_status compile_case(const char *path, int num_threads, ge_session **s, ge_error *err) {
  ge_session_desc d;
  ge_status st;
  int i;
  memset(&d, 0, sizeof d);
  d.level = level;
  d.num_threads = num_threads;
  d.executor = executor, d.check_order = check_order;
  d.launch = host_mode ? GE_LAUNCH_HOST : GE_LAUNCH_SINK;
  if ((st = ge_session_create(&d, s, err))) return st;
  for (i = 0; i < num_options; i++) {
    const char *eq = strchr(options[i], '=');
    char key[128];
    snprintf(key, sizeof key, "%.*s", (int)(eq - options[i]), options[i]);
    if ((st = ge_session_set_option(*s, key, eq + 1, err))) return st;
  }
  if ((st = ge_session_add_graph_file(*s, 1, path, err))) return st;
  return ge_session_compile_graph(*s, 1, err);
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

static ge_status check_failed(ge_error *err, const char *fmt, const char *node, const char *engine) {
  return ge_error_set(err, GE_ERR_INTERNAL, fmt, node, engine);
}

/* Checks the compiled placement: every node placed, no excluded engine,
 * explanations that agree, and the same engines when placed on another
 * number of threads (3, or 1 when the case runs on 3). */
static ge_status check_placement(const ge_session *s, const ge_session *s3, ge_error *err) {
  const ge_graph *g = ge_session_graph(s, 1), *g3 = ge_session_graph(s3, 1);
  const ge_engine_registry *engines = ge_session_engines(s);
  const char *exclude = option_value("ge.exec.exclude_engines"), *type = option_value("ge.engineType");
  const ge_node *n;
  GE_GRAPH_FOREACH(g, n) {
    const ge_node *n3 = ge_graph_node(g3, ge_graph_find((ge_graph *)g3, n->name));
    const ge_engine *e = ge_engine_at(engines, n->engine);
    ge_place_explanation ex;
    if (!n3 || n3->engine != n->engine) return check_failed(err, "node %s: 1 and 3 threads place it differently%s", n->name, "");
    if (!e) return check_failed(err, "node %s is not placed%s", n->name, "");
    if (ge_session_explain(s, 1, g, n, &ex, err) == GE_OK && ex.by == GE_PLACED_COST && ex.cost_choice != n->engine)
      return check_failed(err, "node %s: explanation disagrees with placement%s", n->name, "");
    if (in_csv(exclude, e->accelerator)) return check_failed(err, "node %s is on excluded engine %s", n->name, e->name);
    if (type && !strcmp(type, "VectorEngine") && !strcmp(e->name, "AIcoreEngine"))
      return check_failed(err, "node %s is on AI Core under ge.engineType=VectorEngine%s", n->name, "");
  }
  return GE_OK;
}

/* Compiles the case, checks what the level promises, loads it. */
static ge_status compile_checked(const char *path, ge_session **s, ge_error *err) {
  ge_session *s3 = NULL;
  ge_status st;
  if ((st = compile_case(path, threads, s, err))) return st;
  if (level != GE_COMPILE_REFERENCE) {
    if (!(st = compile_case(path, threads == 3 ? 1 : 3, &s3, err))) st = check_placement(*s, s3, err);
    ge_session_free(s3);
    if (st) return st;
  }
  if (level == GE_COMPILE_PARTITION) { /* acyclic (validation would also refuse ops that only have kernels) */
    const ge_graph *g = ge_session_graph(*s, 1);
    ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * (ge_graph_node_count(g) + 1));
    st = order ? ge_graph_topo_sort((ge_graph *)g, GE_TOPO_BFS, order, err) : GE_ERR_NOMEM;
    free(order);
    if (st) return st;
  }
  return ge_session_load_graph(*s, 1, err);
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
  ge_session *session = NULL;
  ge_program *p;
  ge_error err;
  ge_status st;
  char **sets;
  int n_sets, s, rep, verdict = PASS;
  snprintf(path, sizeof path, "%s/%s/model.onnx", dir, name);
  if ((st = compile_checked(path, &session, &err))) {
    snprintf(why, n, "%.590s", err.message);
    ge_session_free(session);
    return is_unsupported(st) ? UNSUPPORTED : FAIL;
  }
  p = ge_session_program(session, 1);
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
    /* twice: the second run is the one a kernel makes from what the first left (its memo, its packed weights) */
    for (rep = 0; rep < 2 && verdict == PASS; rep++)
      if ((st = ge_session_run_graph(session, 1, in_ptrs, n_in, &err))) {
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
  ge_session_free(session);
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
  if (!(options = (const char **)calloc((size_t)argc, sizeof(char *)))) return 2;
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
    else if (!strcmp(argv[i], "--engines")) level = GE_COMPILE_PLACE;
    else if (!strcmp(argv[i], "--partition") && level != GE_COMPILE_REFERENCE) {
      if (level != GE_COMPILE_FULL) level = GE_COMPILE_PARTITION;
    } else if (!strcmp(argv[i], "--plan") && level != GE_COMPILE_REFERENCE) {
      level = GE_COMPILE_FULL;
    } else if (!strcmp(argv[i], "--option") && i + 1 < argc && level != GE_COMPILE_REFERENCE) {
      const char *kv = argv[++i], *eq = strchr(kv, '=');
      char key[128];
      ge_session *probe = NULL;
      ge_error err;
      ge_status st = GE_ERR_INVALID;
      snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - kv) : 0, kv);
      if (eq && !(st = ge_session_create(NULL, &probe, &err))) st = ge_session_set_option(probe, key, eq + 1, &err);
      ge_session_free(probe);
      if (st) {
        fprintf(stderr, "conformance: bad option '%s'%s%s\n", kv, eq ? ": " : "", eq ? err.message : "");
        return 2;
      }
      options[num_options++] = kv;
    } else {
      fprintf(stderr, "usage: conformance [--floor FILE] [--write-floor FILE] [--verbose] [--engines [--partition] [--plan] "
                      "[--option KEY=VALUE]...] [--executor NAME [--threads N] [--mode sink|host] [--check-order]] DIR...\n");
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
  free(options);
  if (floor_path) {
    printf("%d passed, %d failed\n", floor_pass, floor_fail);
    return floor_fail ? 1 : 0;
  }
  return 0;
}
