//===-- Generator.h - Translation units for the homp fuzzer -----*- C++ -*-===//
//
// Builds a C or C++ translation unit from fuzzer input bytes, read as
// choices: regions with standard OpenMP and homp clauses, loops and
// statements in many shapes, and corruptions (a token dropped or doubled,
// the file cut short) that exercise the error paths.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_UTILS_FUZZ_GENERATOR_H
#define HOMP_UTILS_FUZZ_GENERATOR_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace homp {
namespace fuzz {

/// The first byte of an input that Generator reads.
constexpr uint8_t Marker = 0x01;

struct Program {
  std::string Source;
  bool CPlusPlus = false;
};

Program generate(const uint8_t *Data, size_t Size);

} // namespace fuzz
} // namespace homp

#endif // HOMP_UTILS_FUZZ_GENERATOR_H
