//===-- Generator.cpp - Translation units for the homp fuzzer -------------===//

#include "Generator.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <vector>

namespace homp {
namespace fuzz {
namespace {

using Choices = std::vector<const char *>;

const Choices DirectiveNames = {
    "target",
    "target teams distribute parallel for",
    "target parallel for",
    "target teams distribute",
    "target teams",
    "target simd",
    "target data",
    "target enter data",
    "target exit data",
    "target update",
    "parallel for",
    "parallel target",
    "parallel for target",
    "parallel target data",
    "for",
    "simd",
    "teams distribute",
    "halo_exchange(y)",
    "halo_update leftright(y)",
    "distribute",
    "parallel",
    "task",
    "barrier",
};

const Choices StandardClauses = {
    "device(0)",
    "device(n)",
    "device(-1)",
    "device(host)",
    "device(d * 2 - 1)",
    "device(ancestor: 1)",
    "device(device_num: n)",
    "device(*p)",
    "device(c ? 0 : 1)",
    "map(tofrom: y[0:n])",
    "map(to: x[0:n])",
    "map(from: a)",
    "map(tofrom: b[0:n][0:8])",
    "map(always, tofrom: s)",
    "map(tofrom: *(int *)halo(p))",
    "map(tofrom: p[0:n])",
    "reduction(+: s)",
    "reduction(max: t)",
    "reduction(myop: s)",
    "reduction(task, +: s)",
    "collapse(2)",
    "collapse(4)",
    "if(n > 1)",
    "if(target: n > 1)",
    "nowait",
    "schedule(static, 4)",
    "num_teams(2)",
    "thread_limit(8)",
    "private(m)",
    "firstprivate(n)",
    "depend(in: x[0])",
    "defaultmap(tofrom: scalar)",
    "dist_schedule(static, 2)",
    "to(y[0:n])",
    "from(y[0:n])",
};

const Choices HompClauses = {
    "device(*)",
    "device(0:2)",
    "device(*, host)",
    "device(:2)",
    "device(0:*)",
    "device(5, 6, 7)",
    "device(0:2, 4:2)",
    "device(*:HOMP_DEVICE_NVGPU)",
    "device(0:*:HOMP_DEVICE_CPU)",
    "device(0:10 & OMP_DEVICE_NVGPU)",
    "device(*:2)",
    "device(0, , 1)",
    "device(HOMP_DEVICE_HOST)",
    "map(tofrom: y[0:n] dist_data(BLOCK))",
    "map(to: x[0:n] dist_data(BLOCK) halo(1,))",
    "map(to: x[0:n] dist_data(BLOCK) halo(2:periodic 1))",
    "map(tofrom: y[0:n] partition([BLOCK]))",
    "map(tofrom: y[0:n] dist_data(CYCLIC(2)))",
    "map(tofrom: y[0:n] dist_data(BLOCK(4)))",
    "map(tofrom: y[0:n] dist_data(ALIGN(loop)))",
    "map(tofrom: y[0:n] dist_data(ALIGN(x)), x[0:n] dist_data(BLOCK))",
    "map(tofrom: b[0:n][0:8] dist_data(BLOCK, *))",
    "map(tofrom: b[0:n][0:8] partition([BLOCK][BLOCK]) halo(1, 1))",
    "map(tofrom: y dist_data(BLOCK))",
    "map(tofrom: st.y[0:n] dist_data(BLOCK))",
    "map(tofrom: y[0:n] dist_data(AUTO))",
    "map(tofrom: y[0:n] dist_data(BLOKC))",
    "map(tofrom: y[0:n] dist_data())",
    "map(tofrom: y[0:n] dist_data(BLOCK) topology(0, 2))",
    "map(to: x[0:n] dist_data(DUPLICATE) topology(n - 1))",
    "map(tofrom: b[0:n][0:8] dist_data(BLOCK, BLOCK) topology([2][*]))",
    "map(tofrom: b[0:n][0:8] dist_data(BLOCK, BLOCK) topology(quad[2][2]))",
    "map(tofrom: y[0:n] dist_data(BLOCK) topology(grid))",
    "map(tofrom: y[0:n] dist_data(BLOCK) topology(0,) topology([*]))",
    "map(to: y[0:n/2] dist_data(BLOCK), y[n/2:n/2])",
    "dist_iteration(BLOCK)",
    "dist_iteration(CYCLIC(3))",
    "dist_iteration(BLOCK, BLOCK)",
    "dist_schedule(target: AUTO)",
    "dist_schedule(target: SCHED_DYNAMIC(2%))",
    "dist_schedule(target: ALIGN(y))",
    "dist_schedule(teams: static, 2)",
    "distribute",
    "topology([2][*])",
    "topology(grid[2][2])",
    "topology(grid)",
    "topology([0])",
    "cutoff(0.5)",
};

/// Pieces for clause arguments made up on the spot.
const Choices Fragments = {
    "(",     ")",     "[",      "]",         ",",
    ":",     "*",     "&",      "-",         "+",
    "0",     "1",     "n",      "host",      "y",
    "x",     "BLOCK", "CYCLIC", "ALIGN",     "HOMP_DEVICE_GPU",
    "loop",  "?",     "halo",   "dist_data", "{",
    "}",     ";",     "\\\n",   "/*c*/",     "'a'",
    "\"s\"",
};

const Choices Loops = {
    "for (int i = 0; i < n; ++i)\n    y[i] = x[i] + 1;\n",
    "for (int i = 0; i < n; ++i) {\n    y[i] += 2 * x[i];\n  }\n",
    "for (int i = 0; i < n; ++i)\n    s += y[i];\n",
    "for (int i = n - 1; i >= 0; i--)\n    y[i] = 0;\n",
    "for (int i = 0; i < n; i += 2)\n    y[i] = y[i + 1];\n",
    "for (int i = 0; i < n; ++i)\n    for (int j = 0; j < 8; ++j)\n"
    "      b[i][j] = i + j;\n",
    "loop1: for (int i = 0; i < n; ++i)\n    y[i] = x[i - 1];\n",
    "for (int i = 0; i < n; ++i) {\n#pragma omp parallel for\n"
    "    for (int j = 0; j < 8; ++j)\n      b[i][j] = 0;\n  }\n",
    "{\n#pragma omp parallel for reduction(+: s)\n"
    "    for (int i = 0; i < n; ++i)\n      s += y[i];\n  }\n",
    "{\n#pragma omp parallel for dist_iteration(BLOCK)\n"
    "    for (int i = 0; i < n; ++i)\n      y[i] = 0;\n  }\n",
    "{\n    y[0] = 1;\n  }\n",
    "for (double *q = y; q < y + n; ++q)\n    *q = 0;\n",
    "for (int i = 0; i < n; i *= 2)\n    y[i] = 0;\n",
    "while (n--)\n    y[n] = 0;\n",
    "if (n) for (int i = 0; i < n; ++i) y[i] = 0; else y[0] = 1;\n",
    "do { y[0]++; } while (y[0] < 4);\n",
    "switch (n) { case 1: y[0] = 0; break; default: ; }\n",
    "y[0] = ({ int k = 0; for (int j = 0; j < 2; ++j) k += j; k; });\n",
    "for (int i = 0; i < n; ++i) {\n    double t[2] = {1, 2}, u, w[2];\n"
    "    for (int k = 0; k < n; k += 2)\n      for (int j = k; j > 0; --j)\n"
    "        w[j % 2] = t[k % 2] * -x[j] + (double)j;\n    y[i] = w[0];\n  }\n",
    "for (int i = 0; i < n; ++i)\n    for (int k = 0; k < i; ++k)\n"
    "      y[i] += x[k] < 0 ? -x[k] : x[k];\n",
    ";\n",
    "{ }\n",
    "",
};

/// Text for the region's clauses and statement.
class Builder {
public:
  Builder(const uint8_t *Data, size_t Size) : In(Data, Size) {}

  Program program() {
    Program P;
    P.CPlusPlus = In.ConsumeBool();
    std::string Body;
    unsigned Regions = In.ConsumeIntegralInRange<unsigned>(1, 3);
    for (unsigned R = 0; R < Regions && In.remaining_bytes(); ++R)
      Body += region();
    std::string S = prelude(P.CPlusPlus);
    unsigned Shape = In.ConsumeIntegralInRange<unsigned>(0, 3);
    if (P.CPlusPlus && Shape == 1) {
      // A member function defined in its class, members declared later.
      S += "struct K {\n  void g(double *x, double *y, int n, int m) {\n"
           "    int s = 0; double t = 0; int d = 1, c = 0;\n" +
           Body + "  }\n  int host = 1;\n  int HOMP_DEVICE_GPU = 0;\n};\n";
    } else if (Shape == 2) {
      // A function defined inside another: clang skips it.
      S += "void outer(double *x, double *y, int n, int m) {\n"
           "  void g(double *x, double *y, int n, int m) {\n"
           "    int s = 0; double t = 0; int d = 1, c = 0;\n" +
           Body + "  }\n}\n";
    } else {
      S += "void g(double *x, double *y, int n, int m) {\n"
           "  int s = 0; double t = 0; int d = 1, c = 0;\n" +
           Body + "}\n";
    }
    if (In.ConsumeBool())
      S += "int after(void) { return 0; }\n";
    P.Source = corrupt(std::move(S));
    return P;
  }

private:
  std::string pick(const Choices &C) {
    return C[In.ConsumeIntegralInRange<size_t>(0, C.size() - 1)];
  }

  static std::string prelude(bool CPlusPlus) {
    std::string S = "int a[64];\ndouble b[64][8];\nint *p;\n"
                    "struct S { double *y; } st;\nint *halo(int *);\n"
                    "int myop(int, int);\n";
    if (CPlusPlus)
      S += "template <int A, int B> int pick() { return A; }\n";
    return S;
  }

  std::string clause() {
    switch (In.ConsumeIntegralInRange<unsigned>(0, 5)) {
    case 0:
    case 1:
      return pick(StandardClauses);
    case 2:
    case 3:
      return pick(HompClauses);
    case 4: {
      // A clause of standard names with arguments made up of fragments.
      std::string S = In.ConsumeBool() ? "device(" : "map(tofrom: ";
      unsigned N = In.ConsumeIntegralInRange<unsigned>(0, 6);
      for (unsigned I = 0; I < N; ++I)
        S += pick(Fragments) + " ";
      return In.ConsumeBool() ? S + ")" : S;
    }
    default:
      return In.ConsumeBool() ? "device(pick<1, 2>())" : "";
    }
  }

  std::string region() {
    std::string S = "#pragma omp " + pick(DirectiveNames);
    unsigned Clauses = In.ConsumeIntegralInRange<unsigned>(0, 5);
    for (unsigned C = 0; C < Clauses; ++C)
      S += " " + clause();
    S += "\n  ";
    if (In.ConsumeIntegralInRange<unsigned>(0, 7) == 0)
      S += "#pragma omp " + pick(DirectiveNames) + " " + clause() + "\n  ";
    return S + pick(Loops);
  }

  /// Drops, doubles or cuts at a few places of S.
  std::string corrupt(std::string S) {
    unsigned N = In.ConsumeIntegralInRange<unsigned>(0, 3);
    for (unsigned I = 0; I < N && !S.empty(); ++I) {
      size_t At = In.ConsumeIntegralInRange<size_t>(0, S.size() - 1);
      switch (In.ConsumeIntegralInRange<unsigned>(0, 3)) {
      case 0:
        S.erase(At, 1);
        break;
      case 1:
        S.insert(At, 1, S[At]);
        break;
      case 2:
        S.insert(At, pick(Fragments));
        break;
      default:
        S.resize(At);
      }
    }
    return S;
  }

  FuzzedDataProvider In;
};

} // namespace

Program generate(const uint8_t *Data, size_t Size) {
  return Builder(Data, Size).program();
}

} // namespace fuzz
} // namespace homp
