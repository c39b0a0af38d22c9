// homp-cubin-abi: makes the CUDA device images (cubins) in linked programs
// loadable by LLVM 19's offload runtime.
//
//   homp-cubin-abi [--list] FILE...
//
// CUDA 13's ptxas and nvlink write cubins in a new ELF ABI (OS/ABI 0x41,
// ABI version 8) that keeps the SM number in bits 8-15 of e_flags. LLVM
// 19's CUDA plugin reads the SM from bits 0-7, the old ABI's place (OS/ABI
// 0x33, version 7), finds "sm_0.4" for an sm_90 image and skips it: the
// program then sees no GPU. This rewrites each such image's header in place
// to the old ABI's form (the same SM, 64-bit addresses, unified texture
// mode), which the CUDA 13 driver loads; nothing else in the file changes.
// hompcc runs it on every program it links. --list only prints each
// image's header. Only regular files are read. Exits 1 on a file it cannot
// read or write (saying why), 2 on a usage error, before touching any file.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
  EmCuda = 190,
  OldOsAbi = 0x33,
  OldVersion = 7,
  NewVersion = 8,
  TexmodeUnified = 0x100,
  Address64 = 0x400,
};

static uint32_t read32(const unsigned char *P) {
  return (uint32_t)P[0] | (uint32_t)P[1] << 8 | (uint32_t)P[2] << 16 | (uint32_t)P[3] << 24;
}

static void write32(unsigned char *P, uint32_t V) {
  for (int I = 0; I < 4; ++I)
    P[I] = (unsigned char)(V >> (8 * I));
}

// Whether P starts a 64-bit little-endian ELF image for EM_CUDA.
static int isCudaImage(const unsigned char *P, size_t Left) {
  return Left >= 64 && memcmp(P, "\177ELF", 4) == 0 && P[4] == 2 && P[5] == 1 &&
         (P[18] | P[19] << 8) == EmCuda;
}

static int processFile(const char *Name, int List) {
  struct stat St;
  if (stat(Name, &St) != 0) {
    fprintf(stderr, "homp-cubin-abi: error: cannot read '%s': %s\n", Name, strerror(errno));
    return 1;
  }
  if (!S_ISREG(St.st_mode)) {
    fprintf(stderr, "homp-cubin-abi: error: '%s' is not a regular file\n", Name);
    return 1;
  }
  FILE *F = fopen(Name, "rb");
  if (!F) {
    fprintf(stderr, "homp-cubin-abi: error: cannot read '%s': %s\n", Name, strerror(errno));
    return 1;
  }
  unsigned char *Data = NULL;
  size_t Size = 0, Cap = 0, Got;
  do {
    if (Size == Cap) {
      Cap = Cap ? 2 * Cap : 1 << 20;
      unsigned char *More = realloc(Data, Cap);
      if (!More) {
        fprintf(stderr, "homp-cubin-abi: error: '%s' is too large\n", Name);
        free(Data);
        fclose(F);
        return 1;
      }
      Data = More;
    }
    Got = fread(Data + Size, 1, Cap - Size, F);
    Size += Got;
  } while (Got > 0);
  fclose(F);
  int Changed = 0, Found = 0;
  for (size_t At = 0; At + 64 <= Size; ++At) {
    unsigned char *P = Data + At;
    if (P[0] != 0x7f || !isCudaImage(P, Size - At))
      continue;
    ++Found;
    uint32_t Flags = read32(P + 48);
    if (List) {
      unsigned Sm = P[8] == NewVersion ? (Flags >> 8) & 0xff : Flags & 0xff;
      printf("%s: image at %#zx: OS/ABI %#x, ABI version %u, e_flags %#x, sm_%u\n", Name, At,
             P[7], P[8], Flags, Sm);
    } else if (P[8] == NewVersion) {
      uint32_t Sm = (Flags >> 8) & 0xff;
      P[7] = OldOsAbi;
      P[8] = OldVersion;
      write32(P + 48, Sm | TexmodeUnified | Address64 | Sm << 16);
      Changed = 1;
    }
  }
  if (List && !Found)
    printf("%s: no CUDA image\n", Name);
  int Status = 0;
  if (Changed) {
    F = fopen(Name, "r+b");
    int Written = F && fwrite(Data, 1, Size, F) == Size;
    int Error = errno;
    if (F && fclose(F) != 0 && Written) {
      Written = 0;
      Error = errno;
    }
    if (!Written) {
      fprintf(stderr, "homp-cubin-abi: error: cannot write '%s': %s\n", Name, strerror(Error));
      Status = 1;
    }
  }
  free(Data);
  return Status;
}

static const char Usage[] = "usage: homp-cubin-abi [--list] [--] FILE...\n";

int main(int Argc, char **Argv) {
  int List = 0, First = 1;
  // Options first; every argument is checked before any file is touched.
  for (; First < Argc && Argv[First][0] == '-' && Argv[First][1]; ++First) {
    if (strcmp(Argv[First], "--") == 0) {
      ++First;
      break;
    }
    if (strcmp(Argv[First], "--list") == 0) {
      List = 1;
    } else if (strcmp(Argv[First], "--help") == 0 || strcmp(Argv[First], "-h") == 0) {
      fputs(Usage, stdout);
      puts("Relabels the CUDA 13 images (cubins) in each FILE for LLVM 19's offload runtime;\n"
           "--list prints each image's header instead.");
      return 0;
    } else {
      fprintf(stderr, "homp-cubin-abi: error: unknown option '%s'\n%s", Argv[First], Usage);
      return 2;
    }
  }
  if (First >= Argc) {
    fputs(Usage, stderr);
    return 2;
  }
  int Status = 0;
  for (int I = First; I < Argc; ++I)
    Status |= processFile(Argv[I], List);
  return Status;
}
