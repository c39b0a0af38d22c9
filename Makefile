# Top-level entry points. Both do all set-up on a fresh Debian machine.
#   make demo    set up, build, compile and run the demo on every device
#   make check   set up, build, run every test and print a summary
#   make bench   run the benchmarks (table, CSV, and a Markdown report with
#                plots in build/benchmarks/report.md), then the load-balancing
#                benchmark (table, CSV, Markdown and plots)
#   make fuzz    fuzz the clang plugin for FUZZ_SECONDS (default 300); needs
#                clang's libFuzzer, not part of make check
#   make fuzz-runtime  random differential testing of the runtime for
#                FUZZ_SECONDS: random homp programs against their sequential
#                meaning (utils/fuzz-runtime; a fixed slice is in make check)
#   make check-asan  libhomp and its tests with ASan and UBSan, in build-asan/
#   make check-tsan  the same with TSan, in build-tsan/ (not part of make check)
#   make stress  the Runtime tests STRESS_RUNS times (default 20) in random
#                order (STRESS_FILTER: a lit --filter regex)
#   make gpu-bundle  build/gpu-bundle.tar.zst: tests and benchmarks as fat
#                binaries with every library they need, to run on a GPU node
BUILD ?= build
CMAKE_FLAGS ?=

FUZZ_SECONDS ?= 300
STRESS_RUNS ?= 20
STRESS_FILTER ?=

.PHONY: all setup build demo check check-asan check-tsan stress bench fuzz \
	fuzz-runtime gpu-bundle install clean

all: build

setup:
	@utils/setup.sh

$(BUILD)/build.ninja: | setup
	cmake -S . -B $(BUILD) -G Ninja \
	  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 $(CMAKE_FLAGS)

build: setup $(BUILD)/build.ninja
	cmake --build $(BUILD)

demo: build
	@utils/run-demo.sh $(BUILD)

check: build
	@utils/run-tests.sh $(BUILD)

check-asan: build
	@utils/sanitizers/check.sh address $(BUILD)-asan $(BUILD)

check-tsan: build
	@utils/sanitizers/check.sh thread $(BUILD)-tsan $(BUILD)

stress: build
	@utils/stress.sh $(BUILD) $(STRESS_RUNS) '$(STRESS_FILTER)'

bench: build
	@python3 benchmarks/run.py --build $(BUILD) --csv-dir $(BUILD)/benchmarks \
	  --report $(BUILD)/benchmarks/report.md
	@python3 benchmarks/balance/run.py --build $(BUILD) --out $(BUILD)/benchmarks/balance-results

fuzz: build
	@utils/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS)

fuzz-runtime: build
	@python3 utils/fuzz-runtime/fuzz.py --build $(BUILD) \
	  --seconds $(FUZZ_SECONDS) --keep-going --out $(BUILD)/fuzz-runtime

# Offload architectures of the bundle: HOMP_BUNDLE_ARCHS (default sm_90,x86_64).
gpu-bundle: build
	@python3 utils/gpu-bundle/build.py --build $(BUILD)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
