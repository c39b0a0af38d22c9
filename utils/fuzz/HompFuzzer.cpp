//===-- HompFuzzer.cpp - libFuzzer target for the homp plugin -------------===//
//
// Compiles each input (-fsyntax-only, OpenMP on) twice: with plain clang in a
// child process (inputs that crash clang itself are skipped), and in process
// with homp's consumer. It fails (aborts) when the homp
// compilation crashes or hangs (libFuzzer's own checks), when an input that
// uses no extension gets diagnostics other than plain clang's, or when a
// diagnostic points into clang's scratch space rather than the user's file.
//
// An input is either C or C++ source (mutated from the seed corpus), or, when
// its first byte is Generator::Marker, choices from which Generator builds a
// translation unit.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "HompConsumer.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/Utils.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <optional>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace clang;
using namespace llvm;

namespace {

/// Every diagnostic as one line: level, line:column, message.
class Collector : public DiagnosticConsumer {
public:
  std::vector<std::string> Lines;
  bool InScratchSpace = false;

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    std::string Where = "-";
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      PresumedLoc P = SM.getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Where =
            std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn());
      // The code homp writes is spelled in scratch space but expands at
      // the user's tokens; a diagnostic must point there.
      InScratchSpace |=
          SM.getBufferName(SM.getExpansionLoc(Info.getLocation())) ==
          "<scratch space>";
    }
    Lines.push_back(std::to_string(Level) + " " + Where + " " + Text.c_str());
  }
};

/// -fsyntax-only, with homp's consumer before clang's when WithHomp.
class SyntaxOnly : public SyntaxOnlyAction {
public:
  SyntaxOnly(bool WithHomp, unsigned &Extensions)
      : WithHomp(WithHomp), Extensions(Extensions) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef InFile) override {
    std::unique_ptr<ASTConsumer> Main =
        SyntaxOnlyAction::CreateASTConsumer(CI, InFile);
    if (!WithHomp)
      return Main;
    std::vector<std::unique_ptr<ASTConsumer>> Both;
    Both.push_back(homp::createHompConsumer(
        CI, /*PrintRegions=*/false, [this](SourceLocation) { ++Extensions; }));
    Both.push_back(std::move(Main));
    return std::make_unique<MultiplexConsumer>(std::move(Both));
  }

private:
  bool WithHomp;
  unsigned &Extensions;
};

/// The invocation of 'clang -fopenmp -fsyntax-only' for C or C++, built once
/// by the driver (so that system headers are found).
std::shared_ptr<CompilerInvocation> baseInvocation(bool CPlusPlus) {
  std::vector<const char *> Args = {HOMP_FUZZ_CLANG,
                                    "-fopenmp",
                                    "-fsyntax-only",
                                    "-ferror-limit=0",
                                    CPlusPlus ? "-xc++" : "-xc",
                                    "/dev/null"};
  CreateInvocationOptions Opts;
  std::unique_ptr<CompilerInvocation> CI = createInvocation(Args, Opts);
  if (!CI) {
    errs() << "homp-fuzz: cannot build a compiler invocation\n";
    std::abort();
  }
  return std::shared_ptr<CompilerInvocation>(std::move(CI));
}

struct Result {
  std::vector<std::string> Diagnostics;
  bool InScratchSpace = false;
  unsigned Extensions = 0;
};

Result compile(const std::string &Source, bool CPlusPlus, bool WithHomp) {
  static std::shared_ptr<CompilerInvocation> Base[2] = {baseInvocation(false),
                                                        baseInvocation(true)};
  auto Invocation = std::make_shared<CompilerInvocation>(*Base[CPlusPlus]);
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBuffer(Source, CPlusPlus ? "fuzz.cpp" : "fuzz.c");
  FrontendOptions &FO = Invocation->getFrontendOpts();
  FO.Inputs.clear();
  FO.Inputs.emplace_back(Buffer->getMemBufferRef(),
                         InputKind(CPlusPlus ? Language::CXX : Language::C));
  FO.DisableFree = false;
  // No "N errors generated." on stderr.
  Invocation->getDiagnosticOpts().ShowCarets = false;
  // The pass is 'loaded': no warning about it.
  Invocation->getCodeGenOpts().PassPlugins = {"homp-pass.so"};

  Result R;
  Collector C;
  CompilerInstance CI;
  CI.setInvocation(std::move(Invocation));
  CI.createDiagnostics(&C, /*ShouldOwnClient=*/false);
  SyntaxOnly Action(WithHomp, R.Extensions);
  CI.ExecuteAction(Action);
  R.Diagnostics = std::move(C.Lines);
  R.InScratchSpace = C.InScratchSpace;
  return R;
}

/// The CPU and wall seconds of the child that compiles with plain clang
/// (run.sh gives libFuzzer -timeout=20).
constexpr unsigned PlainSeconds = 8;

/// Plain clang's result, compiled in a child process: an input that crashes
/// clang itself (clang 19 has such bugs) says nothing about homp.
std::optional<Result> compilePlain(const std::string &Source, bool CPlusPlus) {
  int Pipe[2];
  if (pipe(Pipe) != 0)
    std::abort();
  pid_t Child = fork();
  if (Child == 0) {
    // A crash here is clang's: no report, no artifact from libFuzzer.
    for (int Signal :
         {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGALRM, SIGXCPU})
      std::signal(Signal, SIG_DFL);
    // Nor does a compile that runs away: clang 19 took 9 minutes and 15 GiB
    // on one input (libFuzzer's -timeout and -rss_limit_mb watch the parent
    // only). It gets PlainSeconds of CPU and of wall time, well within
    // libFuzzer's timeout (an address-space limit would not do: the
    // sanitizers' shadow memory is already mapped), and dies with the
    // parent. The input is then skipped.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct rlimit Cpu = {PlainSeconds, PlainSeconds};
    setrlimit(RLIMIT_CPU, &Cpu);
    alarm(PlainSeconds);
    close(Pipe[0]);
    Result R = compile(Source, CPlusPlus, /*WithHomp=*/false);
    std::string Out = R.InScratchSpace ? "1" : "0";
    for (const std::string &L : R.Diagnostics)
      Out += "\n" + L;
    for (size_t Done = 0; Done < Out.size();) {
      ssize_t N = write(Pipe[1], Out.data() + Done, Out.size() - Done);
      if (N <= 0)
        _exit(1);
      Done += N;
    }
    _exit(0);
  }
  close(Pipe[1]);
  std::string In;
  char Buf[4096];
  for (ssize_t N; (N = read(Pipe[0], Buf, sizeof(Buf))) > 0;)
    In.append(Buf, N);
  close(Pipe[0]);
  int Status;
  if (waitpid(Child, &Status, 0) != Child || !WIFEXITED(Status) ||
      WEXITSTATUS(Status) != 0)
    return std::nullopt;
  Result R;
  R.InScratchSpace = In[0] == '1';
  for (size_t At = In.find('\n'); At != std::string::npos;) {
    size_t Next = In.find('\n', At + 1);
    R.Diagnostics.push_back(In.substr(At + 1, Next - At - 1));
    At = Next;
  }
  return R;
}

[[noreturn]] void fail(const std::string &Why, const std::string &Source,
                       const Result &Plain, const Result &Homp) {
  errs() << "homp-fuzz: " << Why << "\n--- source\n"
         << Source << "\n--- plain clang\n";
  for (const std::string &L : Plain.Diagnostics)
    errs() << L << "\n";
  errs() << "--- with homp\n";
  for (const std::string &L : Homp.Diagnostics)
    errs() << L << "\n";
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Source;
  bool CPlusPlus;
  if (Size > 0 && Data[0] == homp::fuzz::Marker) {
    homp::fuzz::Program P = homp::fuzz::generate(Data + 1, Size - 1);
    Source = std::move(P.Source);
    CPlusPlus = P.CPlusPlus;
  } else {
    Source.assign(reinterpret_cast<const char *>(Data), Size);
    // Seeds from C++ tests say so in their RUN lines.
    CPlusPlus = Source.find("c++") != std::string::npos ||
                Source.find("clangxx") != std::string::npos ||
                Source.find("hompcxx") != std::string::npos;
  }
  // HOMP_FUZZ_PRINT=1 shows what an input compiles, e.g. one that crashes.
  if (std::getenv("HOMP_FUZZ_PRINT"))
    errs() << "--- " << (CPlusPlus ? "C++" : "C") << " source\n"
           << Source << "\n---\n";
  std::optional<Result> Plain = compilePlain(Source, CPlusPlus);
  if (!Plain)
    return 0;
  Result Homp = compile(Source, CPlusPlus, /*WithHomp=*/true);
  if (Homp.InScratchSpace && !Plain->InScratchSpace)
    fail("a homp diagnostic points into scratch space", Source, *Plain, Homp);
  if (Homp.Extensions == 0 && Homp.Diagnostics != Plain->Diagnostics)
    fail("a program without extensions gets diagnostics other than plain "
         "clang's",
         Source, *Plain, Homp);
  return 0;
}
