#pragma once
/// @file
/// Solving and counting sudoku puzzles with our own bitboard solvers.
///
/// Method (the "definite search" of the seed 000/002 exercises, see
/// docs/sources.md "Sudoku puzzles"): candidate masks per cell, naked and
/// hidden singles to a fixpoint, then depth-first search branching on an
/// open cell with the fewest candidates (minimum remaining values), values
/// in increasing order. 9×9 puzzles use band bitboards with
/// locked-candidate elimination (Fast9Kernel, or its vectorised form),
/// other box shapes digit bitboards of any shape with the same eliminations
/// (GeneralKernel); see solver_kernels.hpp.
///
/// Known values used by the tests: an empty 4×4 (2x2 boxes) has 288
/// solutions; the puzzle
/// `1234567894567891237891234562........5........8........3........6........9........`
/// has 6,696,000 (the band-class check of docs/sudoku-grids.md); the seed
/// 003 puzzle and AI Escargot (Inkala 2006) have one each (docs/sources.md).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pcount/engine/simd.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/sudoku/puzzle.hpp"

namespace pcount::sudoku {

/// Which kernel to run.
enum class Kernel {
  automatic,     ///< automatic_kernel(shape): simd9 or fast9 for 3x3 boxes, general otherwise
  fast9,         ///< scalar band bitboards; 3x3 boxes only (else InvalidArgument("box_shape"))
  general,       ///< any shape with side ≤ 16 (digit bitboards, GeneralKernel)
  sweep,         ///< any shape with side ≤ 16: the first general kernel (SweepKernel), an oracle for tests and benchmarks
  simd9,         ///< vectorised 9×9 kernel on the path simd_path() picks; 3x3 boxes only
  simd9_sse41,   ///< simd9 forced onto its SSE4.1 path (tests; InvalidArgument("kernel") if the CPU lacks it)
  simd9_avx2,    ///< simd9 forced onto its AVX2 path
  simd9_avx512,  ///< simd9 forced onto its AVX-512 path
};

/// Instruction-set paths of the simd9 kernel, one build of the same code
/// each, and their run-time choice (PCOUNT_SIMD): pcount/engine/simd.hpp.
using engine::simd_path;
using engine::simd_path_forced;
using engine::simd_path_name;
using engine::simd_path_supported;
using engine::SimdPath;

/// The kernel Kernel::automatic runs for `shape`: general for boxes other
/// than 3x3; for 3x3, simd9 when the CPU has AVX2 (or AVX-512) or
/// PCOUNT_SIMD names a path, else fast9 (simd9's SSE4.1 build is no faster
/// than fast9: four registers per 16-lane value).
[[nodiscard]] Kernel automatic_kernel(const BoxShape& shape);

/// What one sequential solve found.
struct SolveResult {
  /// Solutions found: the exact count when !limit_reached, else the limit.
  std::uint64_t solutions = 0;
  /// The search stopped at the limit: the puzzle has at least `solutions`.
  bool limit_reached = false;
  /// First solution in search order (values 1..N, row-major); empty if none.
  std::vector<std::uint8_t> first;
  /// Branch assignments tried.
  std::uint64_t nodes = 0;
};

/// Solves `puzzle` sequentially, counting solutions up to `limit`
/// (0 = no limit; counts past 2^64 - 1 are not supported here — use
/// make_count_job). Throws InvalidArgument("box_shape") for a shape the kernel
/// does not support.
[[nodiscard]] SolveResult solve(const Puzzle& puzzle, std::uint64_t limit = 0, Kernel kernel = Kernel::automatic);

/// What solve9 found.
struct Solve9Result {
  std::uint64_t solutions = 0;  ///< as SolveResult::solutions
  bool limit_reached = false;   ///< as SolveResult::limit_reached
  std::uint64_t nodes = 0;      ///< branch assignments tried
};

/// solve() for a 9×9 puzzle with 3x3 boxes given as 81 values (row-major,
/// 0 = blank, 1..9 a clue, as parse_puzzle leaves them), without allocating:
/// the first solution is written to `first` (81 values) when there is one,
/// which is left alone otherwise. `kernel` must be automatic, fast9 or a
/// simd9 kernel, else InvalidArgument("kernel"). The --puzzle-file reader's
/// fast path.
[[nodiscard]] Solve9Result solve9(const std::uint8_t* cells, std::uint64_t limit, Kernel kernel, std::uint8_t* first);

/// How to split the count of one puzzle's solutions into engine tasks.
struct CountJobOptions {
  /// Stop once this many solutions are known (0 = count all). Each task
  /// counts at most `limit`, and tasks stop starting once the finished ones
  /// reach it; the job's counter 0 is then ≥ limit — report min(count, limit).
  std::uint64_t limit = 0;
  /// Depth of the search tree at which tasks are cut (≥ 0; a node is a
  /// propagated state, its children the values of its MRV cell), or -1 to
  /// choose the shallowest depth with at least `min_tasks` tasks.
  int split_depth = -1;
  std::size_t min_tasks = 64;
  Kernel kernel = Kernel::automatic;
  /// Prefix of the job fingerprint (program version, ...).
  std::string fingerprint_prefix = "pcount";
};

/// An engine job counting the solutions of `puzzle`: counter 0 "solutions",
/// Tally::nodes = branch assignments. Task ids are positions of the frontier
/// in DFS order (deterministic). Throws InvalidArgument("split_depth") for a
/// split with too many tasks and InvalidArgument("box_shape") for a bad kernel.
[[nodiscard]] engine::Job make_count_job(const Puzzle& puzzle, const CountJobOptions& options = {});

/// One row of the kernel table (solver.cpp), the one place a kernel is
/// named and dispatched: the CLI's --method list, kernel_name, the run-time
/// dispatch of solve, solve9 and make_count_job, and the tests all read it.
struct KernelInfo {
  Kernel kernel;
  const char* name;   ///< "auto", "fast9", "general", "sweep", "simd9", "simd9-sse4.1", …
  bool cli = false;   ///< offered by --method of --puzzle and --puzzle-file
  bool nine = false;  ///< 3x3 boxes only (else InvalidArgument("box_shape") / ("--method"))
  /// The simd9 path this kernel forces, for the forced simd9 kernels: the
  /// CPU must support it (InvalidArgument("kernel") otherwise).
  const SimdPath* path = nullptr;
  /// The concrete kernel's entry points; null for automatic and simd9,
  /// which resolve to a concrete kernel first, and solve9 null for kernels
  /// that do not take the 81-value fast path.
  SolveResult (*solve)(const Puzzle&, std::uint64_t limit) = nullptr;
  Solve9Result (*solve9)(const std::uint8_t* cells, std::uint64_t limit, std::uint8_t* first) = nullptr;
  engine::Job (*count_job)(const Puzzle&, const CountJobOptions&) = nullptr;
};

/// Every kernel, in the order of the Kernel enum.
[[nodiscard]] std::span<const KernelInfo> kernels();

/// The table row of `k`.
[[nodiscard]] const KernelInfo& kernel_info(Kernel k);

/// Name of a kernel: kernel_info(k).name.
[[nodiscard]] const char* kernel_name(Kernel k);

/// The kernel with this name, if any.
[[nodiscard]] std::optional<Kernel> kernel_by_name(std::string_view name);

}  // namespace pcount::sudoku
