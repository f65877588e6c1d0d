# ge — build, test, demo, bench, dist.  GNU make; `make -j2 test` is fine.
#   make            build/ge (the command-line tool)
#   make test       unit tests + compile matrix + amalgamation; ends with "N passed, N failed"
#   make test SAN=1 the same under ASan+UBSan (objects go to build/san/)
#   make demo | bench | dist | deps | clean

CC      ?= cc
CFLAGS  ?= -std=c99 -O2 -g -Wall -Wextra -pedantic
LDLIBS  ?= -lm
PYTHON  ?= python3
AMALGAMATE_FLAGS ?=
# Debian packages that build and test need (scripts/deps.sh installs missing ones as root).
DEPS    := libxxhash-dev libmimalloc-dev clang g++ binutils python3 libonnx-testdata libstb-dev libopenblas-dev

CPPFLAGS += -I.
DEPFLAGS  = -MMD -MP
BUILD    := build
ifeq ($(SAN),1)
  SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  BUILD    := build/san
endif
# Kept apart from CFLAGS so `make CFLAGS=... SAN=1` still sanitizes.
COMPILE = $(CC) $(CPPFLAGS) $(CFLAGS) $(SANFLAGS) $(DEPFLAGS)
LINK    = $(LDFLAGS) $(SANFLAGS)

HEADERS := $(wildcard ge_*.h ge_engines/*.h ge_engines/*/*.h)
TESTS   := $(patsubst tests/%.c,$(BUILD)/%,$(wildcard tests/test_*.c))

.PHONY: all deps test test-build demo bench dist fuzz docs clean
.DEFAULT_GOAL := all

# Targets that need the packages build through a sub-make, so that under -j nothing
# compiles before scripts/deps.sh has finished (make 4.3 has no .WAIT).
all: deps
	@$(MAKE) --no-print-directory $(BUILD)/ge

deps:
	@scripts/deps.sh $(DEPS)

# The tool is one translation unit: tools/ge.c defines GE_IMPLEMENTATION.
# It decodes images with stb_image. Dense kernels run on AI Core's own SGEMM
# (SIMD picked at run time, threads from the executor): measured as fast as
# OpenBLAS on the benchmark models, and no library threads behind the pool.
$(BUILD)/ge: tools/ge.c | $(BUILD)
	$(COMPILE) -DGE_USE_MIMALLOC -DGE_USE_STB_IMAGE $< -o $@ $(LINK) -lmimalloc -lstb $(LDLIBS)

# The library for the test programs, compiled once per build rather than once per test:
# one object per module header (tests/ge_lib.c with that header's GE_<NAME>_IMPLEMENTATION,
# at the same flags), archived in libge.a. Two modules read macros of another's implementation,
# so they compile with it rather than alone: rnn_kernels.h takes its SIMD path only with
# vector_kernels.h's implementation in its translation unit, ai_cpu.h its x86 kernels only
# with ai_core.h's (GE__AIC_X86). vector_kernels.h and ai_core.h have no object of their own.
LIB_HEADERS := $(filter-out ge_engines/vector_kernels.h ge_engines/ai_core.h,$(wildcard ge_*.h ge_engines/*.h))
LIB_OBJS    := $(patsubst %.h,$(BUILD)/lib/%.o,$(notdir $(LIB_HEADERS)))
# ge_engines/ai_core.h -> GE_AI_CORE_IMPLEMENTATION, ge_graph.h -> GE_GRAPH_IMPLEMENTATION;
# IMPL names the exceptions.
impl_macro = $(shell basename $(1) .h | tr a-z A-Z | sed -E 's/^(GE_)?/GE_/')_IMPLEMENTATION
LIB_COMPILE = $(COMPILE) -c -DGE_LIB_HEADER='"$<"' -D$(or $(IMPL),$(call impl_macro,$<)) tests/ge_lib.c -o $@
$(BUILD)/lib/%.o: %.h tests/ge_lib.c | $(BUILD)/lib
	$(LIB_COMPILE)
$(BUILD)/lib/%.o: ge_engines/%.h tests/ge_lib.c | $(BUILD)/lib
	$(LIB_COMPILE)
$(BUILD)/lib/rnn_kernels.o: CPPFLAGS += -DGE_VECTOR_KERNELS_IMPLEMENTATION
$(BUILD)/lib/ai_cpu.o: CPPFLAGS += -DGE_AI_CORE_IMPLEMENTATION
$(BUILD)/lib/ge_local.o: IMPL := GE_GE_LOCAL_IMPLEMENTATION
$(BUILD)/libge.a: $(LIB_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

# Each tests/test_X.c is a program linked with libge.a. One that tests a module's private
# ge__ functions or test knobs defines that module's implementation macro, so the module
# compiles into the test and the linker takes only the other modules from the archive.
$(BUILD)/test_%: tests/test_%.c $(BUILD)/libge.a | $(BUILD)
	$(COMPILE) $< $(BUILD)/libge.a -o $@ $(LINK) $(LDLIBS)
# Test-specific flags are private: make would pass them on to libge.a's objects otherwise.
# The DVPP engine decodes images with Debian's stb_image (libstb-dev: header + -lstb).
$(BUILD)/test_engine_dvpp: private CPPFLAGS += -DGE_USE_STB_IMAGE
$(BUILD)/test_engine_dvpp: private LDLIBS += -lstb
# test_engine_ai_core_blas.c is test_engine_ai_core.c with GE_USE_OPENBLAS.
$(BUILD)/test_engine_ai_core_blas: private LDLIBS += -lopenblas
# test_vector_fast runs kernels on a two-thread pool of its own.
$(BUILD)/test_vector_fast: private LDLIBS += -lpthread
# test_place loads engines from shared libraries: one of this ABI, one of another.
$(BUILD)/test_place: $(BUILD)/plugin_engine.so $(BUILD)/plugin_engine_abi99.so
$(BUILD)/plugin_engine.so: tests/plugin_engine.c | $(BUILD)
	$(COMPILE) -fPIC -shared $< -o $@ $(LINK) $(LDLIBS)
$(BUILD)/plugin_engine_abi99.so: tests/plugin_engine.c | $(BUILD)
	$(COMPILE) -fPIC -shared -DPLUGIN_ABI=99 $< -o $@ $(LINK) $(LDLIBS)

# The ONNX conformance runner (tests/test_conformance.sh runs it against the floor).
$(BUILD)/conformance: tests/conformance.c $(BUILD)/libge.a | $(BUILD)
	$(COMPILE) $< $(BUILD)/libge.a -o $@ $(LINK) $(LDLIBS)

# Everything make test needs built; the no-op recipe keeps make from saying "nothing to do".
test-build: $(TESTS) $(BUILD)/conformance $(BUILD)/ge dist/ge.h
	@:

# run_all.sh builds the tests itself (through $(MAKE), so -j and SAN carry over)
# and reports a build failure as a failed suite, keeping the summary the last line.
test: deps
	@MAKE='$(MAKE)' tests/run_all.sh $(BUILD)

$(BUILD)/demo: examples/demo.c | $(BUILD)
	$(COMPILE) $< -o $@ $(LINK) $(LDLIBS)

# The demo runs a small CNN shipped as ONNX (examples/models, made by
# make_tiny.py with PyTorch) and checks it against PyTorch's output; then it
# builds a graph with the C API and inspects the saved file.
demo: deps
	@$(MAKE) --no-print-directory $(BUILD)/demo $(BUILD)/ge
	$(BUILD)/ge run examples/models/tiny_cnn.onnx --input input=examples/models/tiny_cnn.input.npy \
	    --outdir $(BUILD)/demo_out --repeat 20 --warmup 2
	@printf "demo: relative error against PyTorch's output: "
	@$(PYTHON) bench/npy_compare.py $(BUILD)/demo_out/output.npy examples/models/tiny_cnn.output.npy --tol 1e-4
	$(BUILD)/demo $(BUILD)/demo.geg
	@echo "demo: the C API graph compiled: each node's engine and why (ge inspect)"
	@$(BUILD)/ge inspect $(BUILD)/demo.geg --dot $(BUILD)/demo.dot | sed -n '/^placement:/,$$p' | grep -v -E '^ +not '
	@echo "demo: Graphviz drawing of the compiled graph written to $(BUILD)/demo.dot"

$(BUILD)/graph_bench: bench/graph_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) $(LDLIBS)

# Built like the tool: graphs allocate through mimalloc.
$(BUILD)/place_bench: bench/place_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG -DGE_USE_MIMALLOC $< -o $@ $(LINK) -lmimalloc $(LDLIBS)
$(BUILD)/partition_bench: bench/partition_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG -DGE_USE_MIMALLOC $< -o $@ $(LINK) -lmimalloc $(LDLIBS)
$(BUILD)/stream_bench: bench/stream_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) $(LDLIBS)
$(BUILD)/mem_bench: bench/mem_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) $(LDLIBS)
$(BUILD)/single_op_bench: bench/single_op_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) $(LDLIBS)
# Fast float32 kernels against the reference kernels (µs per op).
$(BUILD)/vector_bench: bench/vector_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) $(LDLIBS)
# AI Core's Conv/ConvTranspose kernels, GFLOP/s per layer at 1 and 2 threads.
$(BUILD)/conv_bench: bench/conv_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) -lpthread $(LDLIBS)
# One conv's 2-thread shares: concurrent against one after another.
$(BUILD)/conv_shares: bench/conv_shares.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) -lpthread $(LDLIBS)
# Reading cache lines the other CPU wrote against lines this one wrote.
$(BUILD)/xcore: bench/xcore.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ -lpthread
# AI Core's Winograd F(4x4, 3x3) against F(2x2, 3x3) per 3x3 layer.
$(BUILD)/wino_bench: bench/wino_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) -lpthread $(LDLIBS)
# AI Core's 3-D Conv on r3d_18's layers, GFLOP/s per layer at 1 and 2 threads.
$(BUILD)/conv3d_bench: bench/conv3d_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) -lpthread $(LDLIBS)
# MobileNet-v2's conv layers on AI Core, ms per layer type at 1 and 2 threads.
$(BUILD)/mobilenet_bench: bench/mobilenet_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) -lpthread $(LDLIBS)
# AI Core's SGEMM against OpenBLAS (needs libopenblas-dev), GFLOP/s.
$(BUILD)/gemm_bench: bench/gemm_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) -lopenblas -lpthread $(LDLIBS)
$(BUILD)/loop_bench: bench/loop_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) $(LDLIBS)
$(BUILD)/runtime_bench: bench/runtime_bench.c | $(BUILD)
	$(COMPILE) -O2 -DNDEBUG $< -o $@ $(LINK) $(LDLIBS)

# Tables of bench/README.md: the IR, placement, execution overhead and model
# latency against ONNX Runtime (npm onnxruntime-node; the model table needs PyTorch).
bench: deps
	@$(MAKE) --no-print-directory $(BUILD)/graph_bench $(BUILD)/place_bench $(BUILD)/partition_bench \
	    $(BUILD)/stream_bench $(BUILD)/mem_bench $(BUILD)/single_op_bench $(BUILD)/vector_bench $(BUILD)/loop_bench \
	    $(BUILD)/runtime_bench $(BUILD)/ge
	$(BUILD)/graph_bench
	$(BUILD)/place_bench
	$(BUILD)/partition_bench 10000 7
	$(BUILD)/stream_bench
	$(BUILD)/mem_bench
	$(BUILD)/single_op_bench
	$(BUILD)/loop_bench
	$(BUILD)/runtime_bench
	bash bench/plans.sh
	bash bench/exec_overhead.sh
	bash bench/models.sh

# libFuzzer targets (clang) for every reader of outside bytes; `make fuzz`
# builds them and seed corpora; run e.g. build/fuzz_graph -max_total_time=600 build/fuzz_corpus
# or build/fuzz_npy ... build/fuzz_npy_corpus, build/fuzz_run ... build/fuzz_run_corpus
FUZZ_FLAGS := -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -I.
fuzz: deps
	@mkdir -p $(BUILD)/fuzz_corpus
	clang $(FUZZ_FLAGS) tests/fuzz/fuzz_graph.c -o $(BUILD)/fuzz_graph -lm
	clang $(FUZZ_FLAGS) tests/fuzz/fuzz_onnx.c -o $(BUILD)/fuzz_onnx -lm
	clang $(FUZZ_FLAGS) tests/fuzz/fuzz_npy.c -o $(BUILD)/fuzz_npy -lm
	@mkdir -p $(BUILD)/fuzz_npy_corpus && cp tests/fuzz/npy_seeds/*.npy $(BUILD)/fuzz_npy_corpus/
	clang $(FUZZ_FLAGS) tests/fuzz/fuzz_run.c -o $(BUILD)/fuzz_run -lm
	@mkdir -p $(BUILD)/fuzz_run_corpus && cp tests/fuzz/run_seeds/*.bin $(BUILD)/fuzz_run_corpus/
	$(CC) $(CPPFLAGS) $(CFLAGS) tests/fuzz/seed_graphs.c -o $(BUILD)/fuzz_seeds -lm
	$(BUILD)/fuzz_seeds $(BUILD)/fuzz_corpus

# docs/host_cpu_ops.md: the host CPU engine's ops and what does not pass, by cause.
ONNX_DATA := /usr/share/libonnx-testdata/data
docs: deps
	@$(MAKE) --no-print-directory $(BUILD)/conformance
	$(BUILD)/conformance --verbose $(ONNX_DATA)/node $(ONNX_DATA)/pytorch-converted \
	    $(ONNX_DATA)/pytorch-operator $(ONNX_DATA)/simple > $(BUILD)/conformance.txt
	$(PYTHON) scripts/ops_table.py $(BUILD)/conformance.txt > docs/host_cpu_ops.md

dist: dist/ge.h

dist/ge.h: amalgamate.py $(HEADERS)
	$(PYTHON) amalgamate.py $(AMALGAMATE_FLAGS) -o $@

$(BUILD) $(BUILD)/lib:
	mkdir -p $@

clean:
	rm -rf build dist

-include $(wildcard $(BUILD)/*.d $(BUILD)/lib/*.d)
