//===-- HompPass.cpp - Redirects distributed offload launches -------------===//
//
// In a host module that contains homp markers and offload calls (the names
// are in homp/EntryPoints.def):
//  - each call of a marker (__homp_region, __homp_data, which run their
//    construct on one device) becomes a call of its distributed form, whose
//    result is a handle for libhomp;
//  - each call of an offload entry point (__tgt_target_kernel, the data
//    mapping calls) becomes a call of libhomp's replacement, which acts on
//    handles and forwards any other device id to libomptarget unchanged;
//  - for each kernel launch, a host thunk calls the region's host version
//    (the function clang calls when offloading fails) with parameters taken
//    from an array, so the host can run its part in place.
// Modules without markers are not changed.
//
//===----------------------------------------------------------------------===//

#include "HompPass.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace homp {

namespace {

struct Rename {
  StringLiteral From, To;
};

constexpr Rename Markers[] = {
#define HOMP_MARKER(Id, Name, DistributedName) {Name, DistributedName},
#include "homp/EntryPoints.def"
};

constexpr Rename Redirects[] = {
#define HOMP_REDIRECT(Id, Name, HompName) {Name, HompName},
#include "homp/EntryPoints.def"
};

constexpr StringLiteral TargetKernel = Redirects[0].From;
constexpr StringLiteral ThunkSuffix = ".homp_thunk";

} // namespace

static bool isDeviceModule(const Module &M) {
  // Set by clang for every -fopenmp-is-target-device compilation, including
  // x86_64 offload devices, whose triple matches the host's.
  return M.getModuleFlag("openmp-device") != nullptr;
}

static SmallVector<CallBase *, 8> callsTo(Function *F) {
  SmallVector<CallBase *, 8> Calls;
  if (!F)
    return Calls;
  for (User *U : F->users())
    if (auto *CB = dyn_cast<CallBase>(U))
      if (CB->getCalledOperand() == F)
        Calls.push_back(CB);
  return Calls;
}

/// The host version of the region whose id is RegionId: clang names the id
/// '.__omp_offloading_<entry>.region_id' and the function
/// '__omp_offloading_<entry>'.
static Function *hostVersion(Module &M, Value *RegionId) {
  auto *GV = dyn_cast<GlobalVariable>(RegionId->stripPointerCasts());
  if (!GV)
    return nullptr;
  StringRef Name = GV->getName();
  if (!Name.consume_front(".") || !Name.consume_back(".region_id") ||
      !Name.starts_with("__omp_offloading_"))
    return nullptr;
  return M.getFunction(Name);
}

/// Builds 'i32 thunk(ptr Params, i64 Count)': checks that Count is the number
/// of F's parameters, then calls F with Params[i] converted to each
/// parameter's type. clang passes pointers, and scalars as integers.
static Function *buildThunk(Module &M, Function &F) {
  std::string Name = (F.getName() + ThunkSuffix).str();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  for (Type *T : F.getFunctionType()->params())
    if (!T->isPointerTy() && !T->isIntegerTy())
      return nullptr;
  if (F.getFunctionType()->isVarArg())
    return nullptr;

  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I64 = Type::getInt64Ty(C);
  Type *I32 = Type::getInt32Ty(C);
  auto *Ty = FunctionType::get(I32, {Ptr, I64}, false);
  Function *Thunk = Function::Create(Ty, GlobalValue::InternalLinkage, Name, M);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", Thunk);
  BasicBlock *Call = BasicBlock::Create(C, "call", Thunk);
  BasicBlock *Mismatch = BasicBlock::Create(C, "mismatch", Thunk);
  IRBuilder<> B(Entry);
  unsigned N = F.arg_size();
  Value *Ok = B.CreateICmpEQ(Thunk->getArg(1), ConstantInt::get(I64, N));
  B.CreateCondBr(Ok, Call, Mismatch);

  B.SetInsertPoint(Call);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < N; ++I) {
    Value *Slot = B.CreateConstInBoundsGEP1_64(Ptr, Thunk->getArg(0), I);
    Value *V = B.CreateLoad(Ptr, Slot);
    Type *ParamTy = F.getFunctionType()->getParamType(I);
    if (ParamTy->isIntegerTy())
      V = B.CreateZExtOrTrunc(B.CreatePtrToInt(V, I64), ParamTy);
    else if (ParamTy != Ptr)
      V = B.CreateAddrSpaceCast(V, ParamTy);
    Args.push_back(V);
  }
  B.CreateCall(&F, Args);
  B.CreateRet(ConstantInt::get(I32, 0));

  B.SetInsertPoint(Mismatch);
  B.CreateRet(ConstantInt::get(I32, 1));
  return Thunk;
}

/// Makes every call of From call a function To of the same type (plus the
/// trailing parameters Extra); Arg gives each call's extra arguments.
/// Returns how many calls changed.
static unsigned
redirectCalls(Module &M, Function *From, StringRef To, ArrayRef<Type *> Extra,
              function_ref<SmallVector<Value *, 1>(CallBase &)> ExtraArgs) {
  SmallVector<CallBase *, 8> Calls = callsTo(From);
  if (Calls.empty())
    return 0;
  FunctionType *Ty = From->getFunctionType();
  SmallVector<Type *, 16> Params(Ty->params());
  Params.append(Extra.begin(), Extra.end());
  FunctionCallee New = M.getOrInsertFunction(
      To, FunctionType::get(Ty->getReturnType(), Params, Ty->isVarArg()));
  for (CallBase *CB : Calls) {
    if (Extra.empty()) {
      CB->setCalledOperand(New.getCallee());
      CB->mutateFunctionType(New.getFunctionType());
      continue;
    }
    SmallVector<Value *, 16> Args(CB->args());
    Args.append(ExtraArgs(*CB));
    IRBuilder<> B(CB);
    CallInst *Call = B.CreateCall(New, Args);
    Call->setDebugLoc(CB->getDebugLoc());
    CB->replaceAllUsesWith(Call);
    CB->eraseFromParent();
  }
  if (From->use_empty())
    From->eraseFromParent();
  return static_cast<unsigned>(Calls.size());
}

PassSummary runHompPass(Module &M) {
  PassSummary S;
  S.IsDeviceModule = isDeviceModule(M);
  if (S.IsDeviceModule)
    return S;
  // Without markers the module is standard OpenMP; without offload calls
  // (no offload targets) the markers keep running each construct on one
  // device.
  bool HasMarkers = false, HasOffload = false;
  for (const Rename &R : Markers)
    HasMarkers |= !callsTo(M.getFunction(R.From)).empty();
  for (const Rename &R : Redirects)
    HasOffload |= !callsTo(M.getFunction(R.From)).empty();
  if (!HasMarkers || !HasOffload)
    return S;

  for (const Rename &R : Markers)
    if (Function *F = M.getFunction(R.From))
      S.Markers += redirectCalls(M, F, R.To, {}, nullptr);

  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  for (const Rename &R : Redirects) {
    Function *F = M.getFunction(R.From);
    if (!F)
      continue;
    if (R.From != TargetKernel) {
      S.DataCalls += redirectCalls(M, F, R.To, {}, nullptr);
      continue;
    }
    // Kernel launches also get the region's host thunk.
    S.Launches += redirectCalls(M, F, R.To, {Ptr}, [&](CallBase &CB) {
      Function *Host =
          CB.arg_size() > 4 ? hostVersion(M, CB.getArgOperand(4)) : nullptr;
      Function *Thunk = Host ? buildThunk(M, *Host) : nullptr;
      if (Thunk)
        ++S.Thunks;
      return SmallVector<Value *, 1>{
          Thunk ? static_cast<Value *>(Thunk)
                : ConstantPointerNull::get(cast<PointerType>(Ptr))};
    });
  }
  return S;
}

/// One analysis remark per module (-Rpass-analysis=homp in clang,
/// -pass-remarks-analysis=homp in opt), so tests can see where the pass ran.
static void remarkSummary(Module &M, const PassSummary &S) {
  Function *Anchor = nullptr;
  for (Function &F : M)
    if (!F.isDeclaration()) {
      Anchor = &F;
      break;
    }
  if (!Anchor)
    return;
  OptimizationRemarkEmitter ORE(Anchor);
  ORE.emit([&] {
    OptimizationRemarkAnalysis R("homp", "Summary", Anchor);
    if (S.IsDeviceModule)
      R << "homp pass: device module " << M.getModuleIdentifier()
        << " left unchanged";
    else
      R << "homp pass: host module " << M.getModuleIdentifier() << ": "
        << ore::NV("Markers", S.Markers) << " markers, "
        << ore::NV("Launches", S.Launches) << " launches redirected, "
        << ore::NV("DataCalls", S.DataCalls) << " data calls redirected, "
        << ore::NV("Thunks", S.Thunks) << " host thunks";
    return R;
  });
}

PreservedAnalyses HompPass::run(Module &M, ModuleAnalysisManager &) {
  PassSummary S = runHompPass(M);
  remarkSummary(M, S);
  bool Changed = S.Markers || S.Launches || S.DataCalls || S.Thunks;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace homp
