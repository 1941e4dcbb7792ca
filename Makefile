# frink — one Makefile. `make` builds the CLI and the library (libfrink.a, libfrink.so, frink.pc);
# `make test` builds and runs the tests; `make sanitize` runs them under ASan + UBSan (+ LSan);
# `make run` generates a story from the embedded default model; `make install PREFIX=/usr/local`
# (DESTDIR honoured) installs the CLI, the headers, both libraries and the pkg-config file.
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WERROR  ?=
SANITIZE ?=
CFLAGS  += -std=c17 -Wall -Wextra $(WERROR) $(SANITIZE) -Iinclude -Isrc -D_GNU_SOURCE -pthread -fno-math-errno -ffp-contract=off
LDLIBS  += -lpcre2-8 -lutf8proc -lxxhash -ljansson -lm -lpthread
B       ?= build
.DEFAULT_GOAL := all

# The library's objects go into both libfrink.a and libfrink.so: position-independent, and every
# symbol hidden but those include/frink.h declares FRINK_API (scripts/check-exports.sh checks).
LIB_CFLAGS = -fPIC -fvisibility=hidden -DFRINK_BUILD

VERSION    = 0.1.0
SOVERSION  = 0
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include

# Per-ISA kernel files are compiled for their ISA; they only run after a CPU check.
AVX2_FLAGS   = -mavx2 -mfma -mf16c
AVX512_FLAGS = -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512vnni -mavx2 -mfma -mf16c
isa_flags = $(if $(findstring _avx512,$(1)),$(AVX512_FLAGS),$(if $(findstring _avx2,$(1)),$(AVX2_FLAGS)))

LIB_SRC  := $(shell find src -name '*.c' -not -path 'src/cli/*' -not -path 'src/server/*' | sort)
LIB_ASM  := $(shell find src -name '*.S' -not -path 'src/cli/*' -not -path 'src/server/*' | sort)
# The CLI and the server (`frink serve`) are clients of the library: one binary.
CLI_SRC  := $(shell find src/cli src/server -name '*.c' | sort)
TEST_SRC := $(sort $(wildcard tests/test_*.c))
LIB_COBJ := $(LIB_SRC:%.c=$(B)/%.o)
LIB_OBJ  := $(LIB_COBJ) $(LIB_ASM:%.S=$(B)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
# The web chat's files (src/server/webui/), compiled in as C arrays by scripts/webui-embed.sh.
WEBUI_FILES := $(sort $(wildcard src/server/webui/*.html src/server/webui/*.css src/server/webui/*.js))
CLI_OBJ  += $(B)/webui/assets.o
TESTS    := $(TEST_SRC:tests/%.c=$(B)/tests/%) $(B)/tests/test_server $(B)/tests/test_pull

# ---- CUDA (src/cuda/) ---------------------------------------------------------------------------
# `make CUDA=1` compiles src/cuda/*.cu with nvcc into libfrink (linking libcudart) and leaves out
# src/cuda/stub.c, which the default build links instead and which needs no CUDA at all.
# `make cuda-check` only compiles (no link, no device needed): the .cu files for sm_80 and sm_90,
# and tests/cuda_parity.c. `make CUDA=1 cuda-parity` builds the device parity program
# (scripts/device-check.sh runs it). -fmad=false: no fused multiply-adds, so the device's sums
# equal their host twins in src/cuda/blocks.h bit for bit. A switch of CUDA= rebuilds the
# objects that differ ($(B)/cuda-config), so one build folder serves both.
NVCC       ?= nvcc
NVCC_PATH  := $(shell command -v $(NVCC) 2>/dev/null)
CUDA_HOME  ?= $(if $(NVCC_PATH),$(abspath $(dir $(NVCC_PATH))..),/usr/local/cuda)
CUDA_SRC   := $(sort $(wildcard src/cuda/*.cu))
CUDA_OBJ   := $(CUDA_SRC:%.cu=$(B)/%.cu.o)
NVCC_FLAGS  = -O2 -g -std=c++17 -fmad=false -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
              -Iinclude -Isrc -DFRINK_BUILD -Xcompiler -fPIC,-fvisibility=hidden,-Wall,-Wextra
ifeq ($(CUDA),1)
LIB_COBJ := $(filter-out $(B)/src/cuda/stub.o,$(LIB_COBJ))
LIB_OBJ  := $(filter-out $(B)/src/cuda/stub.o,$(LIB_OBJ)) $(CUDA_OBJ)
LDLIBS   += -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart -lstdc++
endif
$(B)/cuda-config: FORCE
	@mkdir -p $(dir $@)
	@echo 'CUDA=$(CUDA)' | cmp -s - $@ 2>/dev/null || echo 'CUDA=$(CUDA)' > $@
$(B)/src/cuda/stub.o $(CUDA_OBJ): $(B)/cuda-config
$(B)/%.cu.o: %.cu src/cuda/blocks.h src/cuda/cuda.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@
.PHONY: cuda-check cuda-parity
cuda-check:
	@mkdir -p $(B)/cuda-check
	@for f in $(CUDA_SRC); do echo "$(NVCC) -c $$f"; \
	  $(NVCC) $(NVCC_FLAGS) -c $$f -o $(B)/cuda-check/$$(basename $$f .cu).o || exit 1; done
	$(CC) $(CFLAGS) -Itests -c tests/cuda_parity.c -o $(B)/cuda-check/cuda_parity.o
ifeq ($(CUDA),1)
cuda-parity: $(B)/tests/cuda_parity
else
cuda-parity:
	@echo "cuda-parity: build with make CUDA=1" >&2; exit 1
endif

EXAMPLES := $(sort $(wildcard examples/*.c))

.PHONY: all deps fixtures test sanitize run install example-check clean fuzz fuzz-smoke FORCE
all: $(B)/frink $(B)/libfrink.so $(B)/frink.pc

deps:
	@bash scripts/deps.sh

$(LIB_COBJ): $(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) $(call isa_flags,$<) -MMD -MP -c $< -o $@

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call isa_flags,$<) -MMD -MP -c $< -o $@

$(B)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

# libfrink.a is what a program links: one object, the partial link (ld -r) of every library
# object, its hidden symbols (all but the FRINK_API ones) made local, so that the archive
# exports only frink_ names as the shared library does, and a program that defines `dot`,
# `model` or `gguf_open` of its own links with it (scripts/check-exports.sh, tests/test_link.c).
# The tests that call internal functions link libfrink-internal.a instead: the plain objects.
LD      ?= ld
OBJCOPY ?= objcopy
$(B)/libfrink.o: $(LIB_OBJ)
	$(LD) -r -o $@.tmp $^
	$(OBJCOPY) --localize-hidden $@.tmp $@
	@rm -f $@.tmp

$(B)/libfrink.a: $(B)/libfrink.o
	@rm -f $@
	ar rcs $@ $^

$(B)/libfrink-internal.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/libfrink.so: $(LIB_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libfrink.so.$(SOVERSION) -Wl,--no-undefined -o $@ $^ $(LDLIBS)

# Regenerated on every run: it holds PREFIX, which `make install` may change.
$(B)/frink.pc: frink.pc.in FORCE
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	  -e 's|@VERSION@|$(VERSION)|g' -e 's|@LIBS_PRIVATE@|$(strip $(LDLIBS))|g' $< > $@

$(B)/webui/assets.c: $(WEBUI_FILES) scripts/webui-embed.sh
	@mkdir -p $(dir $@)
	@sh scripts/webui-embed.sh $@ $(WEBUI_FILES)
$(B)/webui/assets.o: $(B)/webui/assets.c src/server/webui.h
	$(CC) $(CFLAGS) -c $< -o $@

# The CLI alone needs line editing (frink chat), HTTP serving (frink serve) and an HTTP client
# (frink pull: libcurl, found by pkg-config).
CURL_CFLAGS := $(shell pkg-config --cflags libcurl 2>/dev/null)
CURL_LIBS   := $(or $(shell pkg-config --libs libcurl 2>/dev/null),-lcurl)
CLI_LDLIBS = -ledit -lmicrohttpd $(CURL_LIBS)
$(B)/src/cli/hub.o: CFLAGS += $(CURL_CFLAGS)
$(B)/frink: $(CLI_OBJ) $(B)/libfrink.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(CLI_LDLIBS)

# Kernel and unit tests call internal functions: they link the plain objects. The tests of
# behaviour, which include no internal header (no "dir/name.h", nor model_util.h, which does),
# link the clean libfrink.a, as a program would: what they call is all the archive has to keep.
API_TESTS := $(filter-out $(B)/tests/test_link,$(patsubst tests/%.c,$(B)/tests/%,\
               $(shell grep -L -E '^\#include "([a-z_]+/[a-z_0-9]+|model_util)\.h"' $(TEST_SRC))))
$(B)/tests/%: tests/%.c $(wildcard tests/*.h) $(B)/libfrink-internal.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(B)/libfrink-internal.a $(LDLIBS)

$(API_TESTS): $(B)/tests/%: tests/%.c $(wildcard tests/*.h) $(B)/libfrink.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(B)/libfrink.a $(LDLIBS)

# A program that defines names the library uses inside (dot, model, gguf_open, ...) links with
# the installed archive and gets its own: the clean libfrink.a, never the internal one.
$(B)/tests/test_link: tests/test_link.c tests/test.h $(B)/libfrink.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(B)/libfrink.a $(LDLIBS)

# The server's reading of generated JSON, tested on its own.
$(B)/tests/test_server_json: tests/test_server_json.c src/server/api_json.c src/server/api_embed_json.c src/server/api_util.h src/server/api_embed.h $(wildcard tests/*.h) $(B)/libfrink-internal.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< src/server/api_json.c src/server/api_embed_json.c $(B)/libfrink-internal.a $(LDLIBS)

# The CLI's SHA-256 (download checks), tested on its own.
$(B)/tests/test_hub_sha256: tests/test_hub_sha256.c src/cli/sha256.c src/cli/hub.h tests/test.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< src/cli/sha256.c

# The web chat's handler and its compiled-in files, http.c's helpers stubbed by the test.
$(B)/tests/test_webui: tests/test_webui.c src/server/webui.c src/server/webui.h $(B)/webui/assets.o tests/test.h $(B)/libfrink.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< src/server/webui.c $(B)/webui/assets.o $(B)/libfrink.a $(LDLIBS)

# The grammar mask's cost per token, trie walk against the per-token check (not part of `make`).
$(B)/bench/grammar-speed: bench/grammar-speed.c $(B)/libfrink-internal.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libfrink-internal.a $(LDLIBS)

# Speculative decoding's speed against plain decoding, for bench/spec.sh (not part of `make`).
$(B)/bench/spec: bench/spec.c $(B)/libfrink.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libfrink.a $(LDLIBS)

# Many inputs in one frink_embed call against the reference's batch, for bench/embed.sh (not part of `make`).
$(B)/bench/embed: bench/embed.c $(B)/libfrink.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libfrink.a $(LDLIBS)

# The server's suite (tests/server/run.sh: the official OpenAI and Anthropic SDKs, curl, raw HTTP)
# runs from the test runner like the C tests, against $(B)/frink.
$(B)/tests/test_server: tests/server/run.sh
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nexec bash tests/server/run.sh "$$@"\n' > $@
	@chmod +x $@

# frink pull / ls / rm and -hf against a mock Hugging Face Hub on 127.0.0.1 (tests/hub/): run by the
# test runner like the C tests, against $(B)/frink; it never reaches the network.
$(B)/tests/test_pull: tests/hub/test_pull.py tests/hub/mockhub.py
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nexec python3 tests/hub/test_pull.py "$$@"\n' > $@
	@chmod +x $@

# The web chat in headless Chromium alone (make test runs it too, in tests/server/run.sh):
# installs Chromium and the test's npm packages when missing; skips, saying why, without them.
.PHONY: test-webui
test-webui: $(B)/frink
	@bash scripts/server-test-deps.sh
	@bash scripts/webui-test-deps.sh
	@FRINK_BIN=$(B)/frink node tests/server/test_webui.mjs

# The fixtures the tree does not carry (vocabularies, architecture fixtures, quantized variants): scripts/fixtures.sh.
fixtures:
	@bash scripts/fixtures.sh

test: deps fixtures
	@bash scripts/check-layers.sh
	@$(MAKE) --no-print-directory all $(TESTS)
	@bash tests/run.sh $(B)

# The whole suite under AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer, in its own
# build directory. Any report fails the program that made it (the CLI's too, run by test_cli).
SAN_B     ?= build-san
SAN_FLAGS  = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
sanitize: deps fixtures
	@$(MAKE) --no-print-directory B=$(SAN_B) SANITIZE="$(SAN_FLAGS)" $(SAN_B)/frink $(TEST_SRC:tests/%.c=$(SAN_B)/tests/%) $(SAN_B)/tests/test_server $(SAN_B)/tests/test_pull
	@ASAN_OPTIONS=detect_leaks=1:$(ASAN_OPTIONS) UBSAN_OPTIONS=print_stacktrace=1:$(UBSAN_OPTIONS) bash tests/run.sh $(SAN_B)

install: $(B)/frink $(B)/libfrink.a $(B)/libfrink.so $(B)/frink.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 755 $(B)/frink $(DESTDIR)$(BINDIR)/frink
	install -m 644 include/frink.h $(DESTDIR)$(INCLUDEDIR)/frink.h
	install -m 644 include/frink_tools.h $(DESTDIR)$(INCLUDEDIR)/frink_tools.h
	install -m 644 $(B)/libfrink.a $(DESTDIR)$(LIBDIR)/libfrink.a
	install -m 755 $(B)/libfrink.so $(DESTDIR)$(LIBDIR)/libfrink.so.$(SOVERSION)
	ln -sf libfrink.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libfrink.so
	install -m 644 $(B)/frink.pc $(DESTDIR)$(LIBDIR)/pkgconfig/frink.pc

# Installs into a fresh prefix under $(B), then builds every examples/*.c the way a user would
# (pkg-config, the installed shared library) and runs it with no arguments.
EXAMPLE_PREFIX = $(abspath $(B))/example-prefix
example-check: deps
	@rm -rf $(EXAMPLE_PREFIX)
	@$(MAKE) --no-print-directory install DESTDIR= PREFIX=$(EXAMPLE_PREFIX) BINDIR=$(EXAMPLE_PREFIX)/bin \
	  LIBDIR=$(EXAMPLE_PREFIX)/lib INCLUDEDIR=$(EXAMPLE_PREFIX)/include >/dev/null
	@mkdir -p $(B)/examples
	@fail=0; for src in $(EXAMPLES); do \
	  exe=$(B)/examples/$$(basename $$src .c); \
	  flags=$$(PKG_CONFIG_PATH=$(EXAMPLE_PREFIX)/lib/pkgconfig pkg-config --cflags --libs frink) || exit 1; \
	  echo "$(CC) -std=c17 -Wall -Wextra $(WERROR) -g -o $$exe $$src $$flags -Wl,-rpath,$(EXAMPLE_PREFIX)/lib"; \
	  $(CC) -std=c17 -Wall -Wextra $(WERROR) -g -o $$exe $$src $$flags -Wl,-rpath,$(EXAMPLE_PREFIX)/lib || { fail=1; continue; }; \
	  if $$exe > $$exe.out 2>&1; then echo "example $$src: ok"; \
	  else echo "FAILED: example $$src (exit $$?)"; tail -20 $$exe.out; fail=1; fi; \
	done; \
	[ -n "$(EXAMPLES)" ] || echo "example-check: no examples/*.c"; \
	[ $$fail -eq 0 ]

run: deps
	@$(MAKE) --no-print-directory $(B)/frink
	$(B)/frink run -p "Once upon a time" -n 200

# libFuzzer targets (clang; ASan + UBSan) for the GGUF parser and the Jinja engine:
# `make fuzz FUZZ_SECONDS=600` runs each that long (`make fuzz-gguf`, `make fuzz-jinja`: one).
# `make fuzz-smoke` runs each for 15 s (GGUF, Jinja, chat output, GBNF, requests), short enough for CI. The GGUF seeds are small valid files
# written by tests/fuzz/make_seeds.py; new corpus entries go to $(B)/fuzz/corpus, crash
# reproducers to $(B)/fuzz/crash-*. The Jinja seeds are tests/fuzz/jinja_seeds/ and the real chat
# templates under tests/data/templates; its corpus is $(B)/fuzz/jinja_corpus, its crash
# reproducers $(B)/fuzz/jinja-crash-*.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS    = -std=c17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                -Iinclude -Isrc -D_GNU_SOURCE
FUZZ_SRC      = tests/fuzz/fuzz_gguf.c src/core/gguf.c src/core/err.c src/quant/types.c
$(B)/fuzz/fuzz_gguf: $(FUZZ_SRC) src/core/gguf.h src/core/err.h src/quant/types.h src/quant/quant.h include/frink.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_SRC) -o $@

FUZZ_JINJA_SRC = tests/fuzz/fuzz_jinja.c $(sort $(wildcard src/template/jinja*.c)) src/core/err.c
$(B)/fuzz/fuzz_jinja: $(FUZZ_JINJA_SRC) $(wildcard src/template/jinja*.h) src/core/err.h include/frink.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_JINJA_SRC) -o $@ -ljansson -lutf8proc -lm

# The chat output parser: arbitrary bytes under every format and split (tests/fuzz/fuzz_chatparse.c
# checks that the four ways of feeding agree and that every call's arguments are one JSON object).
FUZZ_CHAT_SRC = tests/fuzz/fuzz_chatparse.c $(sort $(wildcard src/chat/chatparse*.c)) src/core/err.c
$(B)/fuzz/fuzz_chatparse: $(FUZZ_CHAT_SRC) $(wildcard src/chat/chatparse*.h) src/core/err.h include/frink.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_CHAT_SRC) -o $@ -ljansson -lm

# GBNF grammars: the bytes before a NUL are a grammar, the bytes after it a text to match.
FUZZ_GRAMMAR_SRC = tests/fuzz/fuzz_grammar.c src/grammar/grammar.c src/core/err.c
$(B)/fuzz/fuzz_grammar: $(FUZZ_GRAMMAR_SRC) src/grammar/grammar.h src/core/err.h include/frink.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_GRAMMAR_SRC) -o $@ -lm

# Requests: arbitrary bytes as the body of every POST route's handler, the embedded model and no
# scheduler (tests/fuzz/fuzz_request.c): no crash, leak or 500, every answer one JSON object. The
# server's files are instrumented; the library is the normal build's $(B)/libfrink.a.
FUZZ_REQUEST_SRC = tests/fuzz/fuzz_request.c $(sort $(wildcard src/server/api_*.c)) src/server/run.c src/server/sched.c
$(B)/fuzz/fuzz_request: $(FUZZ_REQUEST_SRC) $(wildcard src/server/*.h) include/frink.h $(B)/libfrink.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -pthread $(FUZZ_REQUEST_SRC) $(B)/libfrink.a -o $@ $(LDLIBS)

.PHONY: fuzz-gguf fuzz-jinja fuzz-chatparse fuzz-grammar fuzz-request
fuzz: fuzz-gguf fuzz-jinja fuzz-chatparse fuzz-grammar fuzz-request

fuzz-request: $(B)/fuzz/fuzz_request
	@mkdir -p $(B)/fuzz/request_corpus
	$(B)/fuzz/fuzz_request -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	  -dict=tests/fuzz/request.dict -artifact_prefix=$(B)/fuzz/request- $(B)/fuzz/request_corpus tests/fuzz/request_seeds

fuzz-grammar: $(B)/fuzz/fuzz_grammar
	@mkdir -p $(B)/fuzz/grammar_corpus
	$(B)/fuzz/fuzz_grammar -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	  -artifact_prefix=$(B)/fuzz/grammar- $(B)/fuzz/grammar_corpus tests/data/grammars

fuzz-chatparse: $(B)/fuzz/fuzz_chatparse
	@mkdir -p $(B)/fuzz/chat_corpus
	$(B)/fuzz/fuzz_chatparse -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
	  -artifact_prefix=$(B)/fuzz/chat- $(B)/fuzz/chat_corpus

fuzz-gguf: $(B)/fuzz/fuzz_gguf
	@mkdir -p $(B)/fuzz/corpus
	$(B)/fuzz/fuzz_gguf -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	  -dict=tests/fuzz/gguf.dict -artifact_prefix=$(B)/fuzz/ $(B)/fuzz/corpus tests/fuzz/seeds

fuzz-jinja: $(B)/fuzz/fuzz_jinja
	@mkdir -p $(B)/fuzz/jinja_corpus $(B)/fuzz/jinja_real
	@cp $(wildcard tests/data/templates/*.jinja) $(B)/fuzz/jinja_real/ 2>/dev/null || true
	$(B)/fuzz/fuzz_jinja -max_total_time=$(FUZZ_SECONDS) -max_len=32768 -timeout=10 -rss_limit_mb=2048 \
	  -artifact_prefix=$(B)/fuzz/jinja- $(B)/fuzz/jinja_corpus tests/fuzz/jinja_seeds $(B)/fuzz/jinja_real

fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=15

clean:
	rm -rf $(B) $(SAN_B)

# clang-format (.clang-format) over the C files given in FILES, by default those changed since
# HEAD (staged, unstaged or new): the tree is not reformatted wholesale, so history stays
# readable; a file touched is formatted as a whole.
FILES ?= $(shell git diff --name-only --diff-filter=AM HEAD -- '*.c' '*.h' '*.cu' 2>/dev/null; \
                 git ls-files --others --exclude-standard -- '*.c' '*.h' '*.cu' 2>/dev/null)
.PHONY: format
format:
	@command -v clang-format >/dev/null || { echo "format: clang-format is not installed (apt-get install clang-format)" >&2; exit 1; }
	@if [ -z "$(strip $(FILES))" ]; then echo "format: no changed C files (FILES=... names some)"; \
	 else echo "clang-format -i $(FILES)"; clang-format -i $(FILES); fi

-include $(shell find $(B) -name '*.d' 2>/dev/null)
