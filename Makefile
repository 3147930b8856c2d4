# prof - a fast, perf-compatible Linux profiler toolkit.
#
#   make            build ./prof (-O2 -g)
#   make test       install missing build/test packages, then run every test
#   make asan       build ./prof-asan with AddressSanitizer + UBSan
#   make fuzz       build the libFuzzer targets (clang) into fuzz/
#   make demo       install missing build packages, build, tour prof on a demo workload
#   make install    install prof (PREFIX, DESTDIR)
#   make bench      run the benchmarks in bench/ (slow; not part of test)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
VERSION := 0.1.0

CC ?= cc
CLANG ?= clang
PKGS := libelf libdw libzstd liblzma libtraceevent
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lelf -ldw -lzstd -llzma -ltraceevent)

WARN := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2 -Wmissing-prototypes
ifeq ($(CI),true)
WARN += -Werror
endif
CFLAGS ?= -O2 -g
# assert()s state the invariants of the code (queue hand-offs, cursor
# states); the release build compiles them out, make asan, the fuzzers and
# the unit tests (linked with a library of their own, build/assert/) keep
# them (ASSERT=1 keeps them in ./prof too)
ifeq ($(ASSERT),1)
NDEBUG :=
else
NDEBUG := -DNDEBUG
endif
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -DPROF_VERSION='"$(VERSION)"' $(WARN) $(PKG_CFLAGS) $(CFLAGS)
ALL_CFLAGS := $(BASE_CFLAGS) $(NDEBUG)
# libiberty (libiberty-dev) for cplus_demangle
LIBS := $(PKG_LIBS) -liberty -lm -lpthread

# Everything but main.c goes into a library the tests and fuzzers link too.
LIB_SRC := $(filter-out src/main.c,$(wildcard src/*/*.c src/*.c))
LIB_OBJ := $(LIB_SRC:%.c=build/%.o)
MAIN_OBJ := build/src/main.o
# the same library with its assert()s on, for the unit tests
ASSERT_OBJ := $(LIB_SRC:%.c=build/assert/%.o)
DEPS := $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(ASSERT_OBJ:.o=.d)

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=build/tests/%)
# file generators for the shell tests (built by the unit rule, not run by it)
GEN_BIN := build/tests/gen_chains build/tests/gen_groups build/tests/gen_records build/tests/gen_ties build/tests/gen_branches

all: prof

prof: $(MAIN_OBJ) build/libprof.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)

build/libprof.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

build/assert/libprof.a: $(ASSERT_OBJ)
	@rm -f $@
	ar rcs $@ $^

build/assert/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -MMD -MP -c -o $@ $<

build/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

build/tests/%: tests/unit/%.c build/assert/libprof.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -Isrc -o $@ $< build/assert/libprof.a $(LIBS) -lcmocka

-include $(DEPS)

# --- sanitizers -------------------------------------------------------------
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
asan: prof-asan
prof-asan: $(LIB_SRC) src/main.c $(wildcard src/*/*.h)
	$(CC) -std=c11 -D_GNU_SOURCE -DPROF_VERSION='"$(VERSION)"' $(WARN) $(PKG_CFLAGS) $(ASAN_FLAGS) \
		-o $@ $(LIB_SRC) src/main.c $(LIBS)

# --- fuzzing ----------------------------------------------------------------
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_BIN := $(patsubst %.c,%,$(wildcard fuzz/fuzz_*.c))
fuzz: $(FUZZ_BIN)
fuzz/fuzz_%: fuzz/fuzz_%.c $(LIB_SRC) $(wildcard src/*/*.h)
	$(CLANG) -std=c11 -D_GNU_SOURCE -DPROF_VERSION='"$(VERSION)"' $(PKG_CFLAGS) $(FUZZ_FLAGS) \
		-o $@ $< $(LIB_SRC) $(LIBS)

# --- tests ------------------------------------------------------------------
deps:
	@scripts/install-deps

# unit runs each test as its own target (run-test_X): make -j runs several
# at once, and with -O each one's output stays together
UNIT_RUN := $(UNIT_BIN:build/tests/%=run-%)
unit: $(UNIT_RUN)
$(UNIT_RUN): run-%: build/tests/% $(GEN_BIN)
	@echo "== $<"; $<

# make test builds and runs the unit tests on every CPU, or $(TEST_JOBS)
# at a time when set (tests/run-all reads it too)
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: deps
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) -Otarget prof unit
	@tests/run-all

# The demo needs only the packages that build prof (no perf, clang or browser).
demo:
	@scripts/install-deps --demo
	@$(MAKE) --no-print-directory prof
	@scripts/demo

# --- install ----------------------------------------------------------------
install: prof
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 prof $(DESTDIR)$(BINDIR)/prof

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/prof

bench: prof
	bench/run

clean:
	rm -rf build prof prof-asan $(FUZZ_BIN)

.PHONY: all asan fuzz deps unit $(UNIT_RUN) test demo install uninstall bench clean
