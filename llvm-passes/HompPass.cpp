//===-- HompPass.cpp - Redirects distributed offload launches -------------===//
//
// In a host module that contains homp region markers:
//  - each call of the marker __homp_region (which runs the region on one
//    device) becomes a call of __homp_region_distributed, whose result is a
//    handle for libhomp;
//  - each __tgt_target_kernel call becomes a call of __homp_target_kernel,
//    which launches a region over its devices when given a handle and
//    forwards any other device id to libomptarget unchanged;
//  - for each launched region, a host thunk calls the region's host version
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

namespace names {
constexpr StringLiteral Marker = "__homp_region";
constexpr StringLiteral DistributedMarker = "__homp_region_distributed";
constexpr StringLiteral TargetKernel = "__tgt_target_kernel";
constexpr StringLiteral HompTargetKernel = "__homp_target_kernel";
constexpr StringLiteral ThunkSuffix = ".homp_thunk";
} // namespace names

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
  std::string Name = (F.getName() + names::ThunkSuffix).str();
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

PassSummary runHompPass(Module &M) {
  PassSummary S;
  S.IsDeviceModule = isDeviceModule(M);
  if (S.IsDeviceModule)
    return S;
  Function *Marker = M.getFunction(names::Marker);
  SmallVector<CallBase *, 8> Markers = callsTo(Marker);
  Function *Kernel = M.getFunction(names::TargetKernel);
  SmallVector<CallBase *, 8> Launches = callsTo(Kernel);
  // Without markers the module is standard OpenMP; without launches (no
  // offload targets) the markers keep running each region on one device.
  if (Markers.empty() || Launches.empty())
    return S;

  FunctionCallee Distributed = M.getOrInsertFunction(names::DistributedMarker,
                                                     Marker->getFunctionType());
  for (CallBase *CB : Markers) {
    CB->setCalledOperand(Distributed.getCallee());
    CB->mutateFunctionType(Distributed.getFunctionType());
    ++S.Markers;
  }

  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionType *KernelTy = Kernel->getFunctionType();
  SmallVector<Type *, 8> Params(KernelTy->params());
  Params.push_back(Ptr);
  FunctionCallee Homp = M.getOrInsertFunction(
      names::HompTargetKernel,
      FunctionType::get(KernelTy->getReturnType(), Params, false));
  for (CallBase *CB : Launches) {
    SmallVector<Value *, 8> Args(CB->args());
    Function *Host = Args.size() > 4 ? hostVersion(M, Args[4]) : nullptr;
    Function *Thunk = Host ? buildThunk(M, *Host) : nullptr;
    if (Thunk)
      ++S.Thunks;
    Args.push_back(Thunk ? static_cast<Value *>(Thunk)
                         : ConstantPointerNull::get(cast<PointerType>(Ptr)));
    IRBuilder<> B(CB);
    CallInst *New = B.CreateCall(Homp, Args);
    New->setDebugLoc(CB->getDebugLoc());
    CB->replaceAllUsesWith(New);
    CB->eraseFromParent();
    ++S.Launches;
  }
  // The replaced declarations are dead now.
  for (Function *F : {Marker, Kernel})
    if (F->use_empty())
      F->eraseFromParent();
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
        << ore::NV("Markers", S.Markers) << " region markers, "
        << ore::NV("Launches", S.Launches) << " launches redirected, "
        << ore::NV("Thunks", S.Thunks) << " host thunks";
    return R;
  });
}

PreservedAnalyses HompPass::run(Module &M, ModuleAnalysisManager &) {
  PassSummary S = runHompPass(M);
  remarkSummary(M, S);
  bool Changed = S.Markers || S.Launches || S.Thunks;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace homp
