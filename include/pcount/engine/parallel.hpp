#pragma once
/// @file
/// Parallel loops for a problem's preparatory work (class lists, lookup
/// tables), run as engine jobs so that the engine owns every thread: no
/// problem creates a task arena or parallel loop of its own.

#include <cstddef>
#include <functional>

namespace pcount::engine {

/// Runs `body(i)` for every i in [0, count), on `threads` workers (0 = all
/// hardware threads), as one engine job whose task t covers the indices
/// [t·grain, min((t+1)·grain, count)) (grain ≥ 1; 0 is taken as 1). Calls
/// for different i run concurrently, so `body` must be thread-safe; each i
/// runs exactly once. The first exception `body` throws stops the loop
/// (indices not yet started are skipped) and is rethrown. Meant for the
/// work before a job runs, not for use inside a task. Throws InvalidArgument("threads") for threads < 0.
void for_each_index(std::size_t count, int threads, const std::function<void(std::size_t i)>& body,
                    std::size_t grain = 1);

}  // namespace pcount::engine
