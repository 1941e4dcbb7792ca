# frink — one Makefile. `make` builds the CLI; `make test` builds and runs the tests;
# `make run` generates a story from the embedded default model.
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WERROR  ?=
CFLAGS  += -std=c17 -Wall -Wextra $(WERROR) -Iinclude -Isrc -D_GNU_SOURCE -pthread -fno-math-errno -ffp-contract=off
LDLIBS  += -lpcre2-8 -lutf8proc -lm -lpthread
B       ?= build

# Per-ISA kernel files are compiled for their ISA; they only run after a CPU check.
AVX2_FLAGS   = -mavx2 -mfma -mf16c
AVX512_FLAGS = -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512vnni -mavx2 -mfma -mf16c
isa_flags = $(if $(findstring _avx512,$(1)),$(AVX512_FLAGS),$(if $(findstring _avx2,$(1)),$(AVX2_FLAGS)))

LIB_SRC  := $(shell find src -name '*.c' -not -path 'src/cli/*' | sort)
LIB_ASM  := $(shell find src -name '*.S' -not -path 'src/cli/*' | sort)
CLI_SRC  := $(shell find src/cli -name '*.c' | sort)
TEST_SRC := $(sort $(wildcard tests/test_*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/%.o) $(LIB_ASM:%.S=$(B)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
TESTS    := $(TEST_SRC:tests/%.c=$(B)/tests/%)

.PHONY: all deps test run clean fuzz fuzz-smoke format check-shared
all: $(B)/frink

deps:
	@bash scripts/deps.sh

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call isa_flags,$<) -MMD -MP -c $< -o $@

$(B)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

$(B)/libfrink.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/frink: $(CLI_OBJ) $(B)/libfrink.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/%: tests/%.c $(wildcard tests/*.h) $(B)/libfrink.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(B)/libfrink.a $(LDLIBS)

test: deps
	@$(MAKE) --no-print-directory $(B)/frink $(TESTS)
	@bash tests/run.sh $(B)

run: deps
	@$(MAKE) --no-print-directory $(B)/frink
	$(B)/frink run -p "Once upon a time" -n 200

# libFuzzer target for the GGUF parser (clang; ASan + UBSan): `make fuzz FUZZ_SECONDS=600`.
# `make fuzz-smoke` runs it for 30 s, short enough for CI. The seeds are small valid files
# written by tests/fuzz/make_seeds.py; new corpus entries go to $(B)/fuzz/corpus, crash
# reproducers to $(B)/fuzz/crash-*.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS    = -std=c17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                -Iinclude -Isrc -D_GNU_SOURCE
FUZZ_SRC      = tests/fuzz/fuzz_gguf.c src/core/gguf.c src/core/err.c src/quant/types.c
$(B)/fuzz/fuzz_gguf: $(FUZZ_SRC) src/core/gguf.h src/core/err.h src/quant/types.h include/frink.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_SRC) -o $@

fuzz: $(B)/fuzz/fuzz_gguf
	@mkdir -p $(B)/fuzz/corpus
	$(B)/fuzz/fuzz_gguf -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	  -dict=tests/fuzz/gguf.dict -artifact_prefix=$(B)/fuzz/ $(B)/fuzz/corpus tests/fuzz/seeds

fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=30

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
