#include "pcount/engine/parallel.hpp"

#include <algorithm>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::engine {

void for_each_index(std::size_t count, int threads, const std::function<void(std::size_t i)>& body,
                    std::size_t grain) {
  if (count == 0) return;
  grain = std::max<std::size_t>(grain, 1);
  Job job;
  job.fingerprint = "for_each_index";
  job.task_count = (count + grain - 1) / grain;
  job.run_task = [&body, count, grain](std::size_t task, Tally&) {
    const std::size_t end = std::min(count, (task + 1) * grain);
    for (std::size_t i = task * grain; i < end; ++i) body(i);
  };
  RunOptions options;
  options.threads = threads;
  (void)run(job, options);
}

}  // namespace pcount::engine
