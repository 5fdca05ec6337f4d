#pragma once
/// @file
/// The x86-64 instruction-set level a vectorised kernel runs at, chosen at
/// run time: kernels built once per level (the sudoku simd9 kernel, the
/// N-Queens join) ask simd_path() which copy to call.

namespace pcount::engine {

/// Instruction-set paths: the x86-64-v2 (SSE4.1), -v3 (AVX2) and -v4
/// (AVX-512) micro-architecture levels.
enum class SimdPath { sse41, avx2, avx512 };

/// "sse4.1", "avx2" or "avx512".
[[nodiscard]] const char* simd_path_name(SimdPath p);

/// Whether this CPU runs path `p` (CPUID via __builtin_cpu_supports, which
/// also asks the OS for the saved register state; on a machine other than
/// x86-64 only sse41 is reported, built without x86 flags as portable
/// vector code).
[[nodiscard]] bool simd_path_supported(SimdPath p);

/// Whether PCOUNT_SIMD is set (non-empty).
[[nodiscard]] bool simd_path_forced();

/// The path to run: the environment variable PCOUNT_SIMD ("sse4.1", "avx2",
/// "avx512"; read once) when set to a supported path, else the widest
/// supported one. Throws InvalidArgument("PCOUNT_SIMD") when the variable
/// names an unknown or unsupported path.
[[nodiscard]] SimdPath simd_path();

}  // namespace pcount::engine
