# sluice — one GNU Makefile (STYLE.md; modelled on Redis's src/Makefile).
#
#   make                      build $(BUILD)/sluice (installs the build packages: deps.sh build)
#   make run                  build, then serve on 127.0.0.1:8000 in memory
#   make install PREFIX=/usr/local   install $(BUILD)/sluice as $(PREFIX)/bin/sluice (DESTDIR too)
#   make test                 unit, conformance and browser tests (starts its own servers;
#                             installs the test packages too: deps.sh test)
#   make SANITIZER=address test   (or undefined) the same under a sanitizer
#   make fuzz                 build the libFuzzer targets (clang); FUZZ_SECONDS=N runs each
#   make format-check         clang-format check
#   make bench                benchmarks against DynamoDB Local (see README.md, Benchmarks)
#   make deps | deps-build    install every package, or only the build ones
#   make clean
#
# Parallel helpers may use their own BUILD=build-x directory.

SANITIZER ?=
ifeq ($(SANITIZER),)
BUILD ?= build
else
BUILD ?= build-$(SANITIZER)
endif

CC ?= cc
ifeq ($(origin CC),default)
CC = gcc
endif
OPT ?= -O2
WERROR ?=
CFLAGS_ALL = -std=c17 -D_GNU_SOURCE -g $(OPT) -Isrc -MMD -MP \
  -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter $(WERROR)
LDLIBS = -luv -llmdb -lssl -lcrypto -lz -lxxhash -lm

ifeq ($(SANITIZER),address)
CFLAGS_ALL += -fsanitize=address -fno-omit-frame-pointer
LDFLAGS_ALL += -fsanitize=address
else ifeq ($(SANITIZER),undefined)
CFLAGS_ALL += -fsanitize=undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS_ALL += -fsanitize=undefined
endif

# EXCLUDE: source patterns left out (a module in progress), e.g. EXCLUDE=src/expr/%
EXCLUDE ?=
SRCS := $(filter-out $(EXCLUDE),$(sort $(wildcard src/*/*.c)))
OBJS := $(SRCS:%.c=$(BUILD)/obj/%.o)
MAIN_OBJ := $(BUILD)/obj/src/main.o
# Unit tests mirror src/: tests/unit/<layer>/test_*.c links only the objects of
# its layer and of the layers below it (LAYERS_<layer>, DESIGN.md's order), so
# the linker refuses a test, or a layer, that leans on a layer above.
LAYERS_base := base
LAYERS_net := net base
LAYERS_store := store base
LAYERS_metrics := metrics base
LAYERS_cap := cap store base
LAYERS_expr := expr store base
LAYERS_streams := streams cap store base
LAYERS_jobs := jobs streams cap metrics store base
LAYERS_ops := ops jobs streams cap expr metrics store base
LAYERS_partiql := partiql $(LAYERS_ops)
LAYERS_actions := actions $(LAYERS_partiql)
LAYERS_server := server actions $(LAYERS_partiql) net
# The offline tools (tools/tools.h: size, simulate) link the capacity engine,
# base/ and only the pure files of store/ (items, keys, schema, index entries):
# no LMDB, no ops/, no HTTP. tools/explain.c, tools/streams_tail.c and sluice
# size's command (tools/size_cmd.c: --endpoint) ask an endpoint
# (net/client.h) and are left out of their unit tests' link, as are
# sluice bench's driver and executor (tools/bench.c, bench_run.c); its pure
# parts (bench_plan.c) are linked and tested.
LAYERS_tools := tools cap base
STORE_PURE := item item_codec item_json key project schema
TOOLS_ONLINE := explain streams_tail bench bench_run size_cmd
layer_objs = $(filter-out $(if $(filter tools,$(1)),$(TOOLS_ONLINE:%=$(BUILD)/obj/src/tools/%.o)), \
  $(filter $(foreach l,$(LAYERS_$(1)),$(BUILD)/obj/src/$(l)/%),$(OBJS))) \
  $(if $(filter tools,$(1)),$(STORE_PURE:%=$(BUILD)/obj/src/store/%.o))
UNIT_SRCS := $(sort $(wildcard tests/unit/*/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
GENERATED := src/server/assets.gen.c

PY := /usr/bin/python3
PREFIX ?= /usr/local
DESTDIR ?=

# Packages, in two sets (scripts/deps.sh): building needs only the first;
# the test, fuzz, format and bench targets need the second as well. The test
# set waits for the build set, so two package installs never run at once.
DEPS_BUILD_STAMP := $(BUILD)/.deps-build-ok
DEPS_TEST_STAMP := $(BUILD)/.deps-test-ok

.PHONY: all deps deps-build install run test unit conformance browser fuzz format format-check \
  bench micro clean

all: $(BUILD)/sluice

deps-build: $(DEPS_BUILD_STAMP)
deps: $(DEPS_TEST_STAMP)
$(DEPS_BUILD_STAMP): scripts/deps.sh
	@scripts/deps.sh build
	@mkdir -p $(BUILD) && touch $@
$(DEPS_TEST_STAMP): scripts/deps.sh | $(DEPS_BUILD_STAMP)
	@scripts/deps.sh test
	@mkdir -p $(BUILD) && touch $@

$(BUILD)/obj/%.o: %.c | $(DEPS_BUILD_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CFLAGS) -c $< -o $@

$(BUILD)/sluice: $(OBJS) $(MAIN_OBJ)
	$(CC) $(LDFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The layer of a unit test: the folder under tests/unit/ ($* is layer/test_x).
unit_layer = $(firstword $(subst /, ,$(1)))
.SECONDEXPANSION:
$(BUILD)/tests/%: tests/unit/%.c $$(call layer_objs,$$(call unit_layer,$$*))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CFLAGS) -Itests/unit $(LDFLAGS_ALL) -o $@ $< \
	  $(call layer_objs,$(call unit_layer,$*)) $(LDLIBS)

# Micro-benchmarks (bench/micro_*.c): built against the same objects, run by hand
# or by bench/run.py. They print their own numbers; they are never timed tests.
MICRO_SRCS := $(sort $(wildcard bench/micro_*.c))
MICRO_BINS := $(MICRO_SRCS:bench/%.c=$(BUILD)/bench/%)
$(BUILD)/bench/%: bench/%.c $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CFLAGS) $(LDFLAGS_ALL) -o $@ $< $(OBJS) $(LDLIBS)
micro: $(MICRO_BINS)

run: $(BUILD)/sluice
	$(BUILD)/sluice serve --bind 127.0.0.1 --port 8000

install: $(BUILD)/sluice
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/sluice $(DESTDIR)$(PREFIX)/bin/sluice

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do $$t; done

# The dashboard's assets are compiled in: regenerate when one changes.
$(GENERATED): scripts/embed_assets.py $(wildcard src/server/dashboard/*)
	$(PY) scripts/embed_assets.py

# The dashboard in headless Chromium (tests/browser, playwright-core from npm).
browser: $(BUILD)/sluice | $(DEPS_TEST_STAMP)
	SLUICE_BIN=$(abspath $(BUILD)/sluice) tests/browser/run.sh

conformance: $(BUILD)/sluice | $(DEPS_TEST_STAMP)
	SLUICE_BIN=$(abspath $(BUILD)/sluice) $(PY) -m pytest -q -p no:cacheprovider tests/conformance $(PYTEST_ARGS)

test: unit conformance browser

# libFuzzer targets, built with clang in their own directory.
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=build-fuzz/%)
FUZZ_OBJS := $(SRCS:%.c=build-fuzz/obj/%.o)
FUZZ_CFLAGS = -std=c17 -D_GNU_SOURCE -g -O1 -Isrc -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -MMD -MP
FUZZ_SECONDS ?= 0

build-fuzz/obj/%.o: %.c | $(DEPS_TEST_STAMP)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -c $< -o $@

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LDLIBS)

# Keep the fuzz objects: make would otherwise treat them as intermediate files.
.SECONDARY: $(FUZZ_OBJS)

fuzz: $(FUZZ_BINS)
	@set -e; if [ "$(FUZZ_SECONDS)" != 0 ]; then for f in $(FUZZ_BINS); do \
	  n=$$(basename $$f); mkdir -p build-fuzz/corpus/$$n; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -timeout=5 build-fuzz/corpus/$$n tests/fuzz/corpus/$${n#fuzz_}; done; \
	else for f in $(FUZZ_BINS); do n=$$(basename $$f); $$f -runs=0 tests/fuzz/corpus/$${n#fuzz_} >/dev/null 2>&1 || { echo "$$n: corpus run failed"; exit 1; }; done; \
	echo "fuzz targets built; corpora replay clean (FUZZ_SECONDS=N to fuzz)"; fi

FORMAT_FILES = $(shell git ls-files 'src/*.c' 'src/*.h' 'tests/*.c' 'tests/*.h' 'bench/*.c' | grep -v '\.gen\.')
format: | $(DEPS_TEST_STAMP)
	clang-format -i $(FORMAT_FILES)
format-check: | $(DEPS_TEST_STAMP)
	clang-format --dry-run --Werror $(FORMAT_FILES)

bench: $(BUILD)/sluice $(MICRO_BINS) | $(DEPS_TEST_STAMP)
	$(PY) bench/run.py --sluice $(abspath $(BUILD)/sluice) --micro-http $(abspath $(BUILD)/bench/micro_http) $(BENCH_ARGS)
	@for m in $(MICRO_BINS); do case $$m in *micro_http) ;; \
	  *micro_records) echo "== $$m"; $$m 50000 $(MICRO_ROUNDS);; \
	  *micro_trim) echo "== $$m"; $$m 100000 $(MICRO_ROUNDS);; \
	  *) echo "== $$m"; $$m;; esac; done
# BENCH_QUICK=1 (under a minute): one round of the micro-benchmarks that take three.
MICRO_ROUNDS := $(if $(filter 1,$(BENCH_QUICK)),1,3)

clean:
	rm -rf build build-* 

# Header dependencies of every object and of the test, bench and fuzz programs.
-include $(OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(FUZZ_OBJS:.o=.d) $(UNIT_BINS:=.d) $(MICRO_BINS:=.d) $(FUZZ_BINS:=.d)
